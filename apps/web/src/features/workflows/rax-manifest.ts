import { parseManifest, RAX_LIMITS, RAX_MANIFEST } from '@opsdeck/rax/format';

/**
 * The name and description a `.rax` file's manifest gives (docs/workflows.md), read in the browser
 * with only the manifest inflated (fflate, loaded when first needed); null when the file is not a
 * readable `.rax`: the form then keeps what it has, and the upload is where the server says why.
 */
export async function readManifest(file: Blob): Promise<{ name: string; description: string } | null> {
  const { unzip } = await import('fflate');
  const bytes = new Uint8Array(await file.arrayBuffer());
  const entries = await new Promise<Record<string, Uint8Array> | null>((resolve) =>
    unzip(
      bytes,
      { filter: (entry) => entry.name === RAX_MANIFEST && entry.originalSize <= RAX_LIMITS.maxManifestBytes },
      // Not a zip, or a broken one: nothing to fill the form from.
      (error, data) => resolve(error ? null : data),
    ),
  );
  const manifest = entries?.[RAX_MANIFEST];
  if (!manifest) return null;
  try {
    const { name, description } = parseManifest(JSON.parse(new TextDecoder().decode(manifest)));
    return { name, description };
  } catch {
    // Not JSON, or not a manifest (RaxError): the same as no manifest.
    return null;
  }
}

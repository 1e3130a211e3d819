import type { SigningKey } from '@opsdeck/licensing/signing-key';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../platform/access';

const tags = ['licenses'];

/** The PEM (SPKI) document of the key that verifies licence files (docs/licensing.md). */
const PublicKeyPem = z.string().meta({ id: 'LicensePublicKey', description: 'A PEM (SPKI) Ed25519 public key' });

export const licenseRoutes: FastifyPluginAsyncZod<{ signing: SigningKey }> = async (app, { signing }) => {
  app.get(
    '/license/public-key',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'The key that verifies licence files',
        description:
          'An Ed25519 public key as a PEM (SPKI) document, `application/x-pem-file`: a machine checks the signature of its licence file with it, with no network (docs/licensing.md). No sign-in; the app key as on every call.',
        response: { 200: PublicKeyPem },
      },
    },
    async (_request, reply) => reply.type('application/x-pem-file').send(signing.publicKeyPem),
  );
};

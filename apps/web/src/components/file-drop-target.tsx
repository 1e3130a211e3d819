import { Box, type BoxProps, Center, Overlay, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, type ReactNode, useRef, useState } from 'react';

interface FileDropTargetProps extends BoxProps {
  /** The first file dropped. */
  onFile: (file: File) => void;
  /** What the overlay says while a file is held over the area. */
  label: string;
  /** No drop is taken (the user may not create here): the area is left to the browser. */
  disabled?: boolean;
  children: ReactNode;
}

const carriesFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');

/**
 * An area a file can be dropped on, shown by an overlay while one is dragged over it. The overlay
 * is a hint for the pointer: every drop target in the console has a file input beside it for the
 * keyboard.
 */
export function FileDropTarget({ onFile, label, disabled = false, children, ...boxProps }: FileDropTargetProps) {
  const [over, setOver] = useState(false);
  // Entering a child fires dragleave on the parent: count the entries to know when the file left.
  const depth = useRef(0);
  if (disabled) return <Box {...boxProps}>{children}</Box>;

  const leave = () => {
    depth.current = 0;
    setOver(false);
  };
  return (
    <Box
      {...boxProps}
      pos="relative"
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        // Without this the browser opens the file instead of dropping it here.
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current -= 1;
        if (depth.current <= 0) leave();
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        leave();
        const file = event.dataTransfer?.files[0];
        if (file) onFile(file);
      }}
    >
      {children}
      {over && (
        <Overlay color="var(--mantine-color-body)" backgroundOpacity={0.85} blur={1} radius="md" zIndex={5}>
          <Center
            h="100%"
            style={{ border: '2px dashed var(--mantine-primary-color-filled)', borderRadius: 'inherit' }}
          >
            <Text fw={600} c="var(--mantine-primary-color-filled)" role="status">
              <IconUpload size={20} aria-hidden="true" style={{ verticalAlign: 'middle', marginRight: 8 }} />
              {label}
            </Text>
          </Center>
        </Overlay>
      )}
    </Box>
  );
}

/** A file on disk as `importFile`'s input: its head read without the rest (a Tideline database can be large). */
import { open, readFile } from 'node:fs/promises';
import type { ImportFileInput } from './import-sessions.js';

/** `path` read from disk when asked: the first bytes for format detection, the whole file for text formats. */
export function importFileInput(path: string, format?: ImportFileInput['format']): ImportFileInput {
  return {
    path,
    readHead: (n) => readHead(path, n),
    readAll: () => readFile(path),
    ...(format === undefined ? {} : { format }),
  };
}

/** The first `n` bytes of a file, without reading the rest. */
async function readHead(path: string, n: number): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

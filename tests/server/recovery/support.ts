import fs from 'node:fs/promises';
import path from 'node:path';

/** Moves a file's or folder's times into the past, as if it had been left there that long ago. */
export async function backdate(file: string, ms = 2 * 60 * 60 * 1000): Promise<void> {
  const then = new Date(Date.now() - ms);
  await fs.utimes(file, then, then);
}

/** Writes a file (making its folder), dated `ms` ago. */
export async function plant(file: string, content: Buffer | string, ms?: number): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
  await backdate(file, ms);
}

/** Every file below a folder, relative to it (none when the folder is missing). */
export async function filesBelow(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Every folder below a folder that holds nothing at all. */
export async function emptyFoldersBelow(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const empty: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory())) {
    const full = path.join(entry.parentPath, entry.name);
    if (!(await fs.readdir(full)).length) empty.push(path.relative(dir, full));
  }
  return empty;
}

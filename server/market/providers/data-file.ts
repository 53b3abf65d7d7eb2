// Committed data files under data/ (the shelf; MARKET_DATA_ROOT in tests), read lazily and kept: an embedded provider
// reads its file on first use, never at import, and once per process. Every file there has its source and licence
// written beside it (a SOURCES.md or README.md in its folder; data/README.md lists them); nothing here invents or fills in a value.
import fs from "node:fs";
import path from "node:path";

function dataPath(rel: string): string {
  return path.join(process.env.MARKET_DATA_ROOT ?? process.cwd(), "data", rel);
}

/** A JSON file under data/ (e.g. "market/treasury/...", "economy/catalog.json"), parsed. Throws when it is missing (use `dataFileIfPresent` for optional data). */
export function dataFile<T>(rel: string): T {
  return JSON.parse(fs.readFileSync(dataPath(rel), "utf8")) as T;
}

/** A JSON file under data/, or null when there is none (data this deployment may not hold). */
export function dataFileIfPresent<T>(rel: string): T | null {
  try {
    return dataFile<T>(rel);
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return null;
    throw err;
  }
}

/** The file names in a folder under data/ (sorted), or [] when there is no such folder: what a deployment holds. */
export function dataFileNames(relDir: string): string[] {
  try {
    return fs.readdirSync(dataPath(relDir)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return [];
    throw err;
  }
}

/** A text file (CSV) under data/. */
export function dataText(rel: string): string {
  return fs.readFileSync(dataPath(rel), "utf8");
}

let memo = new Map<string, unknown>();

/** `load()` once per key and process (a file's parsed content, an index over it). */
export function cached<T>(key: string, load: () => T): T {
  if (!memo.has(key)) memo.set(key, load());
  return memo.get(key) as T;
}

/** Tests only: forget what was read (a test pointing MARKET_DATA_ROOT elsewhere reads the files again). */
export function resetEmbeddedCache(): void {
  memo = new Map();
}

// The shelf's CSV files as rows of strings keyed by header (RFC 4180: a quoted field may hold commas and doubled
// quotes). Values are the file's text; turning them into numbers, and what an empty field means, is the reader's.

/** One line's fields. */
function splitLine(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted && ch === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (ch === "," && !quoted) {
      out.push(field);
      field = "";
    } else {
      field += ch;
    }
  }
  out.push(field);
  return out;
}

/** Every data row of `text` (no field spans lines in the shelf's files), keyed by the header's names. */
export function csvRows(text: string): Record<string, string>[] {
  const lines = text.split(/\r?\n/).filter((l) => l !== "");
  const header = splitLine(lines[0] ?? "");
  return lines.slice(1).map((line) => {
    const f = splitLine(line);
    return Object.fromEntries(header.map((h, i) => [h, f[i] ?? ""]));
  });
}

/** A CSV number: the empty field (no value in the source) is null, never 0. */
export function csvNumber(v: string | undefined): number | null {
  if (v === undefined || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

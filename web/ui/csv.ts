// Tables as CSV (RFC 4180) that a spreadsheet or pandas reads as numbers: a number is written
// as the number (no thousands separators, no units, no "better" words glued to it), and the
// lines before the header, each starting with "#", say what the table is and name every
// parameter of the runs behind it and the command that makes them again
// (pandas.read_csv(f, comment="#") skips them).

export type CsvCell = string | number | null;

export interface CsvTable {
  /** what the table shows, the first comment line */
  title: string;
  /** every parameter of the runs, one comment line each */
  params?: readonly (readonly [string, string | number])[];
  /** the commands that reproduce the numbers */
  commands?: readonly string[];
  columns: readonly string[];
  /** null: no value (written as an empty cell) */
  rows: readonly (readonly CsvCell[])[];
}

function cell(v: CsvCell): string {
  if (v === null) return '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return '';
    return String(v);
  }
  return /[",\r\n#]/.test(v) || v !== v.trim() ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Rows of cells as CSV lines; a cell with a comma, quote, '#' or line break is quoted. */
export function csvLines(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** The comment lines (title, parameters, commands), then the header row, then the rows. */
export function toCsv(t: CsvTable): string {
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
  const comments = [
    `# ${oneLine(t.title)}`,
    ...(t.params ?? []).map(([k, v]) => `# ${oneLine(k)}: ${oneLine(String(v))}`),
    ...(t.commands ?? []).map((c) => `# command: ${oneLine(c)}`),
  ];
  return comments.join('\r\n') + '\r\n' + csvLines([t.columns, ...t.rows]);
}

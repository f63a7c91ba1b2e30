// Saving a file from the page: a temporary object URL on a link the user's click follows.
export function download(data: Blob | string, name: string, type = 'text/plain'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Reads a file the user picked, refusing one larger than maxBytes before reading it. */
export async function readPicked(input: HTMLInputElement, maxBytes: number): Promise<{ name: string; text: string } | undefined> {
  const f = input.files?.[0];
  if (!f) return undefined;
  if (f.size > maxBytes) throw new Error(`${f.name} is ${f.size} bytes; the limit is ${maxBytes}`);
  return { name: f.name, text: await f.text() };
}

// Names a user gives (a saved scenario's) cannot hide what they hold: the same rule as the C
// core's blab_name_ok() (wasm-core/src/text.c, checked against it in names.test.ts). A
// bidirectional override (U+202E) turns the rest of a line around, so "evil‮txt.exe" shows as
// something else; control characters, zero-width characters and a byte order mark are not
// shown at all.

/** control characters (C0, DEL, C1), ALM, zero width / LRM / RLM, embeddings and overrides,
 * word joiner .. isolates, the byte order mark */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;
/** a UTF-16 surrogate that is not half of a pair: not a character (nor UTF-8 the core takes) */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a name is refused, or null when it is fine. */
export function nameProblem(name: string): string | null {
  const m = HIDDEN.exec(name);
  if (m) {
    const cp = m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `it holds U+${cp}, a control, bidirectional or invisible character`;
  }
  if (LONE_SURROGATE.test(name)) return 'it holds half of a UTF-16 surrogate pair';
  return null;
}

/** The core build hash of the repository at root (16 hex digits). */
export function coreHash(root: string): string;

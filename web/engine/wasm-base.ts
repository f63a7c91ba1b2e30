// Where the WebAssembly core's files are, seen from a worker. The build puts the workers in
// assets/ and the core in wasm/ beside it, and the app may be served from any folder (a host's
// root, /course/, ...): so relative to the worker's own address. The dev server serves public/
// (where make wasm writes the core) at its root.
export function wasmBase(workerUrl: string): string {
  // (the folder above the worker's, then wasm/ in it)
  return new URL('wasm/', import.meta.env.DEV ? new URL(workerUrl).origin : new URL('..', workerUrl)).href;
}

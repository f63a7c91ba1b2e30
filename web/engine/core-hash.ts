// The core build hash: which allocator and model sources the WebAssembly core was built from
// (scripts/core-hash.mjs computes it at build time, and CMake the same for the native blab).
// Every cached or shipped result is keyed by it, so numbers from another core are never shown
// as this one's.
declare const __BLAB_CORE_HASH__: string;

export const CORE_HASH: string = __BLAB_CORE_HASH__;

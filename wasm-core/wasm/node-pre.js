// Node 20 has fetch(), and emscripten 3.1.6 then tries to fetch the .wasm by path, which
// fails for a file path. Hand the module its bytes instead (pthread workers get the
// compiled module by message and never read the file).
if (typeof process === 'object' && typeof require === 'function' &&
    !Module['wasmBinary'] && !Module['ENVIRONMENT_IS_PTHREAD']) {
  Module['wasmBinary'] = require('fs').readFileSync(require('path').join(__dirname, 'blab.wasm'));
}

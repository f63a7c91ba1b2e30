// Node 20 has fetch(), and emscripten 3.1.6 then tries to fetch the .wasm by path, which
// fails for a file path. Hand the module its bytes instead (pthread workers get the
// compiled module by message and never read the file).
if (typeof process === 'object' && typeof require === 'function' &&
    !Module['wasmBinary'] && !Module['ENVIRONMENT_IS_PTHREAD']) {
  Module['wasmBinary'] = require('fs').readFileSync(require('path').join(__dirname, 'blab.wasm'));
}
// The environment variables the C side reads (getenv), from Node's: emscripten gives a
// program its own small environment otherwise. Runs inside the module, where ENV lives.
if (typeof process === 'object' && process.env && !Module['ENVIRONMENT_IS_PTHREAD']) {
  Module['preRun'] = [].concat(Module['preRun'] || [], function () {
    for (const name of ['BLAB_MEM_LIMIT']) {
      if (process.env[name] !== undefined) ENV[name] = process.env[name];
    }
  });
}
// Node makes a pipe on stdout or stderr non-blocking, and the C side writes through
// fs.writeSync(): once a slow reader lets the pipe fill, a write fails with EAGAIN and its
// bytes are lost (blab replay | (sleep 1; cat) kept the first 64 KB). Make both blocking, as
// a C program's are.
if (typeof process === 'object' && !Module['ENVIRONMENT_IS_PTHREAD']) {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream && stream._handle && typeof stream._handle.setBlocking === 'function') stream._handle.setBlocking(true);
  }
}

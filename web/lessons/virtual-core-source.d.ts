// Where each event record is written in the core's C, scanned at build time by
// web/lessons/source-plugin.ts.
declare module 'virtual:core-source' {
  const map: import('./source-scan').CoreSourceMap;
  export default map;
}

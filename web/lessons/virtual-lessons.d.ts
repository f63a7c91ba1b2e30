// The lesson files, checked at build time by web/lessons/vite-plugin.ts.
declare module 'virtual:lessons' {
  const lessons: { file: string; text: string }[];
  export default lessons;
}

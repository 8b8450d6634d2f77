/**
 * A value built on first use and then kept. For zod schemas in sandbox code: Temporal evaluates workflow modules
 * again for every workflow run, so a schema built at a module's top level costs every run that loads the module,
 * whether or not it parses anything with it (Temporal docs: "Workflow bundle", the sandbox's module cache).
 * Pure: no I/O.
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

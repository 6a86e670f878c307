// A table of kinds by name (an executor's phase facts, its state machine): the built-in ones, plus
// any added in-process (a test's toy executor). Entries are held untyped because each kind's phase
// type is its own; the caller's lookup function is where a name picks its type.

export interface KindRegistry {
  add(name: string, kind: object): void;
  /** the kind of this name; throws "unknown executor 'x'" for a name nobody registered */
  get(name: string): object;
}

export function kindRegistry(builtIn: Readonly<Record<string, object>>): KindRegistry {
  const kinds = new Map<string, object>(Object.entries(builtIn));
  return {
    add: (name, kind) => void kinds.set(name, kind),
    get: (name) => {
      const kind = kinds.get(name);
      if (kind === undefined) throw new Error(`unknown executor '${name}'`);
      return kind;
    },
  };
}

/** The configuration refused: one line per problem (config.ts, the vendors' variables in registry.ts). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export {
  type ImportLeakFileOptions,
  type ImportProgress,
  type ImportStats,
  importLeakFile,
  type LeakFileFormat,
  LeakImportError,
  leakFileFormat,
} from './import.ts';
export {
  canonicalRecordJson,
  isRejected,
  LEAK_COLUMN_TARGETS,
  LEAK_RECORD_FIELDS,
  type LeakColumnMapping,
  type LeakColumnTarget,
  LeakRecordBuilder,
  leakRecordHash,
  MAX_VALUE_LENGTH,
  type PreparedLeakRecord,
} from './record.ts';
export { isSecretColumn } from './secrets.ts';
export { type LeakSourceInput, refreshLeakSourceCounts, upsertLeakSource } from './sources.ts';
export { createLeakWriter, type LeakWriter, type LeakWriterOptions } from './writer.ts';

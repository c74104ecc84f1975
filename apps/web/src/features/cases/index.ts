/** What other features use of the cases feature: a case's captured pages (the results' 'Capture'). */
export {
  type CapturesAnswer,
  capturesKey,
  createCapture,
  useCaptureStatus,
  useCaptures,
} from './api/captures.ts';

import { useState } from 'react';
import { toast } from 'react-toastify';
import { failureMessage, isSessionEnd } from '../lib/field-errors.ts';

/**
 * A download behind a button (the case bundle, a capture's ZIP): `save` fetches the file and hands it
 * to the browser; while it runs `busy` is true and a second press does nothing; then a toast says it
 * was saved, or why not (the server's message, else `failed`). A session that ended says nothing
 * here: the sign-in screen says it.
 */
export function useFileSave(save: () => Promise<void>, texts: { saved: string; failed: string }) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await save();
      toast.success(texts.saved);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, texts.failed));
    } finally {
      setBusy(false);
    }
  };
  return { busy, start: () => void start() };
}

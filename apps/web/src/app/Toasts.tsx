import { TOAST_AUTO_CLOSE_MS } from '@footprint/domain';
import { ToastContainer } from 'react-toastify';

/**
 * The toast area, in a chunk of its own: the toast library stays out of the entry chunk, and pages
 * that show no toast (the landing page) never wait for it. Toasts raised before it mounts are kept by
 * the library and shown as soon as it does.
 */
export default function Toasts() {
  return <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} theme="dark" newestOnTop />;
}

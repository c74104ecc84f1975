/**
 * A web address that wraps where a reader expects it to: after a `/`, `?`, `&` or `#` (a <wbr> there),
 * and only inside a part when that part alone is wider than the line (`wrap-anywhere` on the caller).
 * `break-all` broke it inside any word instead ("notic" / "e").
 */
export function BreakableUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=[/?&#])/);
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address never reorder
        <span key={index}>
          {part}
          {index < parts.length - 1 && <wbr />}
        </span>
      ))}
    </>
  );
}

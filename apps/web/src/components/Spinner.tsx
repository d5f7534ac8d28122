export function Spinner({ label, size = 20 }: { label?: string; size?: number }) {
  return (
    <span className="spinner" role={label ? 'status' : undefined} aria-label={label} style={{ width: size, height: size }}>
      <span aria-hidden="true" />
    </span>
  );
}

/** A whole-area loading state. */
export function Loading({ label }: { label: string }) {
  return (
    <div className="loading-state">
      <Spinner size={28} />
      <p>{label}</p>
    </div>
  );
}

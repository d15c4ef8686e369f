export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="progressbar" aria-label={label} aria-busy="true" className="flex items-center justify-center p-6">
      <span className="size-8 animate-spin rounded-full border-4 border-primary/30 border-t-primary" />
    </div>
  );
}

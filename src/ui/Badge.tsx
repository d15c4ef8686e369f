/** A count on an icon button (unread notifications): 99+ past two digits. */
export function Badge({ count }: { count: number }) {
  return (
    <span className="absolute -right-0.5 -top-0.5 min-w-4 rounded-full bg-danger px-1 text-center text-[10px] leading-4 text-white">
      {count > 99 ? '99+' : count}
    </span>
  );
}

// Toast queue of spec §3/§4/§9: one toast at a time (a new one drops the
// oldest), the same id replaces in place, timers by type. Framework-free so
// the rules are testable with fake timers; React reads it through
// useSyncExternalStore.

export type ToastType = 'positive' | 'danger' | 'loading';
export type ToastPosition = 'bottom-center' | 'bottom-right' | 'top-center';

export interface ToastAction {
  label: string;
  action: string | (() => void);
}

export interface Toast {
  id: string;
  message: string;
  type: ToastType | undefined;
  position: ToastPosition;
  /** Milliseconds until it closes itself; null never closes on its own. */
  duration: number | null;
  action?: ToastAction;
  disableEnterAnimation?: boolean;
  disableExitAnimation?: boolean;
}

export interface ToastInput {
  id?: string;
  type?: ToastType;
  position?: ToastPosition;
  duration?: number | null;
  action?: ToastAction;
  disableEnterAnimation?: boolean;
  disableExitAnimation?: boolean;
}

export const MAX_VISIBLE_TOASTS = 1;
export const DANGER_DURATION = 8000;
export const DEFAULT_DURATION = 3000;
export const DEFAULT_POSITION: ToastPosition = 'bottom-center';
const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomToastId(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ID_CHARS[b % ID_CHARS.length]).join('');
}

export function defaultDuration(type: ToastType | undefined): number | null {
  if (type === 'loading') return null;
  if (type === 'danger') return DANGER_DURATION;
  return DEFAULT_DURATION;
}

export class ToastStore {
  private toasts: Toast[] = [];
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private listeners = new Set<() => void>();

  getToasts = (): Toast[] => this.toasts;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  show(message: string, input: ToastInput = {}): string {
    const id = input.id ?? randomToastId();
    const toast: Toast = {
      id,
      message,
      type: input.type,
      position: input.position ?? DEFAULT_POSITION,
      duration: input.duration === undefined ? defaultDuration(input.type) : input.duration,
      action: input.action,
      disableEnterAnimation: input.disableEnterAnimation,
      disableExitAnimation: input.disableExitAnimation,
    };
    const existing = this.toasts.findIndex((t) => t.id === id);
    if (existing >= 0) {
      this.toasts = this.toasts.map((t) => (t.id === id ? toast : t));
    } else {
      this.toasts = [...this.toasts, toast];
      while (this.toasts.length > MAX_VISIBLE_TOASTS) {
        const dropped = this.toasts[0];
        this.toasts = this.toasts.slice(1);
        if (dropped) this.clearTimer(dropped.id);
      }
    }
    this.startTimer(toast);
    this.emit();
    return id;
  }

  remove(id: string): void {
    this.clearTimer(id);
    const next = this.toasts.filter((t) => t.id !== id);
    if (next.length === this.toasts.length) return;
    this.toasts = next;
    this.emit();
  }

  clear(): void {
    for (const id of this.timers.keys()) this.clearTimer(id);
    this.toasts = [];
    this.emit();
  }

  private startTimer(toast: Toast): void {
    this.clearTimer(toast.id);
    if (toast.duration === null) return;
    this.timers.set(
      toast.id,
      setTimeout(() => this.remove(toast.id), toast.duration),
    );
  }

  private clearTimer(id: string): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(id);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

export const toastStore = new ToastStore();

/** `toast('Saved')`, `toast.danger(message)`, `toast.loading('Uploading...')`. */
export const toast = Object.assign((message: string, input?: ToastInput) => toastStore.show(message, input), {
  positive: (message: string, input?: ToastInput) => toastStore.show(message, { ...input, type: 'positive' }),
  danger: (message: string, input?: ToastInput) => toastStore.show(message, { ...input, type: 'danger' }),
  loading: (message: string, input?: ToastInput) => toastStore.show(message, { ...input, type: 'loading' }),
  dismiss: (id: string) => toastStore.remove(id),
});

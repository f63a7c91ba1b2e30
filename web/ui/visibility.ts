// Which panels are on screen. A view off screen is not drawn while the player moves (its
// canvas would be redrawn and uploaded every frame for nobody); when it scrolls into view it is
// drawn at once from the player's current state, which is all a view ever needs.

export function createVisibility(onShown: () => void) {
  const visible = new WeakMap<Element, boolean>();
  const io =
    typeof IntersectionObserver === 'undefined'
      ? undefined
      : new IntersectionObserver(
          (entries) => {
            let shown = false;
            for (const e of entries) {
              if (e.isIntersecting && !visible.get(e.target)) shown = true;
              visible.set(e.target, e.isIntersecting);
            }
            if (shown) onShown();
          },
          { rootMargin: '64px' },
        );
  return {
    watch(e: Element) {
      io?.observe(e);
    },
    /** True until the observer has said otherwise (and always without an observer). */
    shown(e: Element | null): boolean {
      return !e || !io || visible.get(e) !== false;
    },
  };
}

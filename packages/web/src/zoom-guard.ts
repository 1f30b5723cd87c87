/**
 * SPEC §1: touch pinch and gesture zoom are blocked on load, by cancelling the gestures
 * themselves (iOS Safari ignores `user-scalable=no` anyway). The viewport meta does not ask
 * for no scaling: that fails accessibility audits (Lighthouse meta-viewport), and the
 * cancelled gestures block pinch zoom in every browser. Listeners must be non-passive or
 * preventDefault is ignored.
 */
export function installZoomGuard(target: Document): () => void {
  const cancel = (event: Event) => event.preventDefault();
  const cancelPinch = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault();
  };
  const options = { passive: false } as const;
  target.addEventListener('gesturestart', cancel, options);
  target.addEventListener('gesturechange', cancel, options);
  target.addEventListener('touchmove', cancelPinch, options);
  return () => {
    target.removeEventListener('gesturestart', cancel);
    target.removeEventListener('gesturechange', cancel);
    target.removeEventListener('touchmove', cancelPinch);
  };
}

installZoomGuard(document);

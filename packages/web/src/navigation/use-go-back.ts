import { useNavigate } from 'react-router';
import { routeByName } from './names.ts';
import { popPreviousRoute } from './nav-memory.ts';

/** SPEC §2 back navigation: the previous named route in the history, falling back to /. */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  return () => {
    const previous = popPreviousRoute();
    const path = (previous && routeByName(previous)?.path) || '/';
    Promise.resolve(navigate(path)).catch(() => {});
  };
}

import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { Destination } from '../billing-rules';

/** Follows a destination: this site's pages through the router, another site (Stripe) as a page load. */
export function useGoTo() {
  const navigate = useNavigate();
  return useCallback(
    (to: Destination) => {
      if (to.kind === 'internal') void navigate(to.path);
      else window.location.assign(to.url);
    },
    [navigate],
  );
}

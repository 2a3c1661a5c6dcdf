import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toastStore } from '@/lib/toast-store';

// findBy… and waitFor wait for the DOM to show something; their 1 s default is a wall-clock margin that a
// loaded machine eats. A wait that is met returns at once, so a longer bound costs a passing test nothing.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  for (const toast of toastStore.snapshot()) toastStore.dismiss(toast.id);
});

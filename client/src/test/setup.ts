import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toastStore } from '@/lib/toast-store';

afterEach(() => {
  cleanup();
  localStorage.clear();
  for (const toast of toastStore.snapshot()) toastStore.dismiss(toast.id);
});

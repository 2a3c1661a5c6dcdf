import type { ReactNode } from 'react';
import { LegalDocument } from './legal-document';

export const PrivacyPage = ({ intro }: { intro?: ReactNode }) => (
  <LegalDocument kind="privacy" nav="quick" intro={intro} />
);

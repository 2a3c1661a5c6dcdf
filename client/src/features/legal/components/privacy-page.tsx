import { LegalDocument } from './legal-document';

export const PrivacyPage = () => <LegalDocument kind="privacy" nav="quick" />;

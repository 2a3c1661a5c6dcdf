import { LegalDocument } from './legal-document';

export const TermsPage = () => <LegalDocument kind="terms" nav="toc" />;

import { SoonPage } from '@/features/coming-soon/components/soon-page';

/** Route components for the protected pages whose features arrive later (one small chunk for all). */
export const Analytics = () => <SoonPage name="analytics" />;
export const Integrations = () => <SoonPage name="integrations" />;
export const Workflows = () => <SoonPage name="workflows" />;
export const Guidelines = () => <SoonPage name="guidelines" />;
export const Actions = () => <SoonPage name="actions" />;
export const Billing = () => <SoonPage name="billing" />;
export const Settings = () => <SoonPage name="settings" />;
export const WidgetPreview = () => <SoonPage name="widgetPreview" />;
export const Chat = () => <SoonPage name="chat" standalone />;

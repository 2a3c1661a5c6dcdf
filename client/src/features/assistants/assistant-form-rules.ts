import { countWords, isWebUrl, limits } from '@kesher/contracts';

export interface AssistantFormValues {
  name: string;
  description: string;
  instructions: string;
  websiteUrl: string;
  crawlerEnabled: boolean;
  salesMode: boolean;
  salesPrompt: string;
}

export const emptyForm: AssistantFormValues = {
  name: '',
  description: '',
  instructions: '',
  websiteUrl: '',
  crawlerEnabled: false,
  salesMode: false,
  salesPrompt: '',
};

/** i18n keys (assistants namespace) of each field's problem, in the spec's wording (§5). */
export type FormErrors = Partial<
  Record<'name' | 'description' | 'instructions' | 'salesPrompt' | 'websiteUrl' | 'form', string>
>;

export const overLimit = (text: string) => countWords(text) > limits.textFieldWords;

export function validateAssistant(values: AssistantFormValues): FormErrors {
  const errors: FormErrors = {};
  if (!values.name.trim()) errors.name = 'nameRequired';
  if (overLimit(values.description)) errors.description = 'descriptionTooLong';
  if (overLimit(values.instructions)) errors.instructions = 'instructionsTooLong';
  if (values.salesMode && overLimit(values.salesPrompt)) errors.salesPrompt = 'salesPromptTooLong';
  const url = values.websiteUrl.trim();
  if (url && !isWebUrl(url)) errors.websiteUrl = 'invalidUrl';
  if (values.crawlerEnabled && !url) errors.websiteUrl = 'crawlerUrlRequired';
  if (!values.name.trim() || !values.description.trim() || !values.instructions.trim()) errors.form = 'requiredFields';
  return errors;
}

/** Submit stays disabled while a required field is empty (spec §5) or the crawler has no URL (edit). */
export const canSubmit = (values: AssistantFormValues) =>
  !!values.name.trim() &&
  !!values.description.trim() &&
  !!values.instructions.trim() &&
  !(values.crawlerEnabled && !values.websiteUrl.trim());

/** Spec §4: sales mode exists only with the crawler on; switching the crawler off switches it off. */
export function withCrawler(values: AssistantFormValues, enabled: boolean): AssistantFormValues {
  return { ...values, crawlerEnabled: enabled, salesMode: enabled ? values.salesMode : false };
}

/** A predefined prompt is a paragraph appended to (or removed from) a text field. */
export function hasPrompt(text: string, prompt: string) {
  return text.split(/\n{2,}/).some((part) => part.trim() === prompt.trim());
}

export function togglePrompt(text: string, prompt: string): string {
  if (hasPrompt(text, prompt)) {
    return text
      .split(/\n{2,}/)
      .filter((part) => part.trim() !== prompt.trim())
      .join('\n\n')
      .trim();
  }
  return text.trim() ? `${text.trimEnd()}\n\n${prompt}` : prompt;
}

export const salesPromptIds = [
  'lead_qualification',
  'product_recommendation',
  'objection_handling',
  'urgency_creation',
  'trust_building',
  'call_to_action',
  'follow_up',
] as const;
export const commonPromptIds = ['refer_human', 'suggest_contact', 'polite_reliable'] as const;

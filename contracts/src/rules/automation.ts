/**
 * Rules of workflows, guidelines and actions (spec part 2 §3, §5, §8, §9) shared by the API, the runs and
 * the pages: the limits, the texts, and the `{{input}}` template grammar an API action is saved with.
 */

export const automationLimits = {
  titleChars: 200,
  triggerChars: 1_000,
  instructionsChars: 8_000,
  descriptionChars: 2_000,
  phraseChars: 300,
  phrasesPerWorkflow: 50,
  /** §9: at least 5 training phrases recommended; cards show at most 3. */
  recommendedPhrases: 5,
  phrasesOnCard: 3,
  linkedActions: 20,
  headers: 30,
  headerKeyChars: 100,
  headerValueChars: 4_000,
  inputs: 30,
  inputNameChars: 64,
  endpointChars: 2_048,
  bodyTemplateChars: 20_000,
  kbSources: 50,
  /** Per owner: enough for the benchmark's 200 workflows, small enough to match every message in a few ms. */
  workflowsPerOwner: 500,
  guidelinesPerOwner: 200,
  actionsPerOwner: 200,
  externalEndpoints: 20,
  /** An action call's time and response caps. */
  actionTimeoutMs: 10_000,
  minEndpointTimeoutMs: 100,
  maxEndpointTimeoutMs: 30_000,
  actionResponseBytes: 256 * 1024,
} as const;

/** §3: the methods, default GET. */
export const ACTION_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
/** §3: guideline categories and their labels. */
export const GUIDELINE_CATEGORIES = ['tone', 'phrase', 'standardize', 'format', 'custom'] as const;
export const guidelineCategoryLabels = {
  tone: { en: 'Tone', he: 'טון' },
  phrase: { en: 'Preferred Phrases', he: 'ניסוחים מועדפים' },
  standardize: { en: 'Standardization', he: 'אחידות' },
  format: { en: 'Formatting', he: 'עיצוב' },
  custom: { en: 'Custom', he: 'מותאם אישית' },
} as const;
/** Input types an API action declares; §7 names the sample values of number and boolean, text otherwise. */
export const ACTION_INPUT_TYPES = ['string', 'number', 'boolean', 'email', 'date', 'url'] as const;
export type ActionInputType = (typeof ACTION_INPUT_TYPES)[number];

/** §7 POST /actions/{id}/test: 123 for number, true for boolean, "test_value" otherwise. */
export function sampleInputValue(type: ActionInputType | string): string | number | boolean {
  if (type === 'number') return 123;
  if (type === 'boolean') return true;
  return 'test_value';
}

/** What a secret header value looks like when read back; sent back unchanged it means "keep the stored secret". */
export const SECRET_MASK_PREFIX = '********';
export const isMaskedSecret = (value: string) => value.startsWith(SECRET_MASK_PREFIX);
/** Headers whose values are secrets: encrypted at rest, masked on read. */
export const isSecretHeaderName = (name: string) =>
  /auth|token|key|secret|password|cookie|signature|session/i.test(name);

export const automationMessages = {
  /** §8 alerts (the pages say them; the API answers with the precise reason below). */
  failed: (verb: 'create' | 'update' | 'delete', what: 'workflow' | 'guideline' | 'action') =>
    `Failed to ${verb} ${what}. Please try again.`,
  testFailed: 'Test failed. Please check your API configuration.',
  testSuccessful: 'Test successful!',
  /** §5 confirmations. */
  confirmDelete: (what: 'workflow' | 'guideline' | 'action') => `Are you sure you want to delete this ${what}?`,
  noWorkflows: 'No workflows yet',
  titleRequired: 'Title is required',
  triggerRequired: 'Trigger condition is required',
  instructionsRequired: 'Instructions are required',
  categoryInvalid: 'Choose a category: tone, phrase, standardize, format or custom',
  tooLong: (field: string, max: number) => `${field} is too long (max ${max.toLocaleString('en-US')} characters)`,
  tooMany: (what: string, max: number) => `Too many ${what} (max ${max})`,
  workflowNotFound: 'Workflow not found.',
  guidelineNotFound: 'Guideline not found.',
  actionNotFound: 'Action not found.',
  unknownLinkedAction: (id: string) => `Linked action ${id} does not exist.`,
  workflowLimit: (max: number) => `You can have at most ${max} workflows.`,
  guidelineLimit: (max: number) => `You can have at most ${max} guidelines.`,
  actionLimit: (max: number) => `You can have at most ${max} actions.`,
  endpointRequired: 'Endpoint URL is required for an API action',
  endpointNotHttp: 'The endpoint must be an http:// or https:// address',
  endpointPathRequired: 'With a named endpoint, the endpoint is a path starting with /',
  malformedTemplate: (where: string) => `${where}: malformed template — placeholders are written {{input_name}}`,
  unknownPlaceholder: (where: string, name: string) =>
    `${where}: unknown placeholder {{${name}}} — add an input named "${name}" or remove it`,
  bodyNotJson: 'Body template must be JSON (placeholders in double braces reference inputs)',
  bodyWithGet: 'A GET action has no body template',
  duplicateInput: (name: string) => `Input "${name}" is listed twice`,
  inputNameInvalid: 'Input names use letters, digits and _ (starting with a letter)',
  kbSourcesRequired: 'Add at least one source to a knowledge base action',
  headerInvalid: 'Header names use letters, digits and - only',
  missingTestInput: (name: string) => `Missing required input "${name}"`,
  unknownEndpointName: (name: string) => `No external API endpoint named "${name}" is configured for this assistant`,
  endpointNameNeedsAssistant:
    'This action calls a named endpoint: choose the assistant whose external API configuration it uses',
  endpointNameInvalid: 'Endpoint names use letters, digits, _ and - (at most 40)',
  duplicateEndpointName: (name: string) => `Endpoint "${name}" is listed twice`,
  externalConfigNotFound: 'This assistant has no external API configuration.',
  /** Outcomes of a call (test, test-connection, a run's tool call). */
  actionTimedOut: (ms: number) => `The API did not answer within ${ms} ms`,
  actionTooLarge: (bytes: number) => `The API's response is larger than ${Math.round(bytes / 1024)} KB`,
  actionHttpError: (status: number) => `The API answered with HTTP ${status}`,
  actionRefused: (reason: string) => `The address was refused: ${reason}`,
  actionUnreachable: (reason: string) => `The API could not be reached: ${reason}`,
  actionNotJson: (contentType: string | null) => `The API's response is not JSON (${contentType ?? 'no content type'})`,
  actionInputInvalid: (name: string, type: string) => `Input "${name}" must be a ${type}`,
  /** Said in the answer when a run's action failed (it completes; never hangs). */
  actionFailedInAnswer: {
    en: (title: string) => `I could not complete "${title}" right now: the action failed.`,
    he: (title: string) => `לא הצלחתי לבצע את "${title}" כרגע: הפעולה נכשלה.`,
  },
} as const;

/** One piece of a parsed template: literal text or an input placeholder. */
export type TemplatePart = { kind: 'text'; text: string } | { kind: 'input'; name: string };

export const INPUT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * Parses `{{input}}` templates. Malformed when a `{{` is never closed, a `}}` was never opened, or a
 * placeholder is not an input name (spaces around the name are allowed). Returns null when malformed.
 */
export function parseTemplate(template: string): TemplatePart[] | null {
  const parts: TemplatePart[] = [];
  let rest = template;
  while (rest.length) {
    const open = rest.indexOf('{{');
    const strayClose = rest.indexOf('}}');
    if (open === -1) {
      if (strayClose !== -1) return null;
      parts.push({ kind: 'text', text: rest });
      break;
    }
    if (strayClose !== -1 && strayClose < open) return null;
    const close = rest.indexOf('}}', open + 2);
    if (close === -1) return null;
    const name = rest.slice(open + 2, close).trim();
    if (!INPUT_NAME.test(name)) return null;
    if (open > 0) parts.push({ kind: 'text', text: rest.slice(0, open) });
    parts.push({ kind: 'input', name });
    rest = rest.slice(close + 2);
  }
  return parts;
}

/** The placeholders of a template (null when malformed). */
export function templateInputs(template: string): string[] | null {
  const parts = parseTemplate(template);
  return parts ? parts.flatMap((part) => (part.kind === 'input' ? [part.name] : [])) : null;
}

/**
 * Renders a JSON body template: a placeholder inside a JSON string gets the value escaped as string
 * content; anywhere else it gets the value as a JSON literal (123, true, "text"). Values never break out
 * of the JSON structure, whatever a visitor typed.
 */
export function renderJsonTemplate(parts: TemplatePart[], values: Record<string, unknown>): string {
  let out = '';
  let inString = false;
  for (const part of parts) {
    if (part.kind === 'text') {
      for (let i = 0; i < part.text.length; i++) {
        const char = part.text[i];
        if (char === '\\' && inString) {
          out += char + (part.text[i + 1] ?? '');
          i++;
          continue;
        }
        if (char === '"') inString = !inString;
        out += char;
      }
    } else {
      const value = values[part.name] ?? null;
      out += inString ? JSON.stringify(String(value)).slice(1, -1) : JSON.stringify(value);
    }
  }
  return out;
}

/** Renders a URL template: values are percent-encoded, so they cannot change the host or add a path. */
export const renderUrlTemplate = (parts: TemplatePart[], values: Record<string, unknown>) =>
  parts
    .map((part) => (part.kind === 'text' ? part.text : encodeURIComponent(String(values[part.name] ?? ''))))
    .join('');

/** Renders a header template: line breaks removed, so a value cannot add headers. */
export const renderHeaderTemplate = (parts: TemplatePart[], values: Record<string, unknown>) =>
  parts
    .map((part) => (part.kind === 'text' ? part.text : String(values[part.name] ?? '').replace(/[\r\n]+/g, ' ')))
    .join('');

/** User-facing texts from the spec's validation rules and error catalogue (§5, §8), one place only. */
export const messages = {
  assistantNameRequired: 'Assistant name is required',
  requiredFields: 'Please fill in all required fields',
  descriptionTooLong: 'Description is too long (max 1000 words)',
  instructionsTooLong: 'Instructions are too long (max 1000 words)',
  salesPromptTooLong: 'Sales prompt is too long (max 1000 words)',
  /** The character caps beside the spec's word limits (limits.textFieldChars). */
  descriptionTooManyChars: 'Description is too long (max 20,000 characters)',
  instructionsTooManyChars: 'Instructions are too long (max 20,000 characters)',
  salesPromptTooManyChars: 'Sales prompt is too long (max 20,000 characters)',
  invalidWebsiteUrl: 'Please enter a valid website URL',
  salesModeNeedsCrawler: 'Sales mode can only be enabled when the website scanner is on',
  assistantNotFound: 'Assistant not found. Please check if the assistant still exists.',
  assistantExists: 'This assistant already exists',
  emailExists: 'An account with this email already exists. Please try logging in instead.',
  invalidEmail: 'Please enter a valid email address.',
  notFound: 'Resource not found.',
  forbidden: "Access denied. You don't have permission to perform this action.",
  authRequired: 'Authentication required. Please log in again.',
  tooManyRequests: 'Too many requests. Please try again later.',
  serverError: 'Server error occurred. Please try again later.',
  /** The plan's max_assistants (the spec names the limit, not its text; worded like the monthly message limit's). */
  assistantLimitReached: (limit: number) =>
    `You have reached your plan's limit of ${limit} ${limit === 1 ? 'assistant' : 'assistants'}. Delete an assistant or upgrade the plan to create another.`,
  /** The plan's max_crawl_pages: crawled pages an assistant holds as knowledge. */
  crawlPageLimitReached: (limit: number) =>
    `This assistant has reached its plan's limit of ${limit} crawled pages. Remove some pages or upgrade the plan to add more.`,
  /** The plan's max_files: knowledge files per assistant ("documents per agent"). */
  fileLimitReached: (limit: number) =>
    `This assistant has reached its plan's limit of ${limit} files. Delete some files or upgrade the plan to add more.`,
} as const;

import type { ApiError } from '@/lib/api-error-base';
import type { EmbedInitProblem } from './api/embed-assistant';

/*
 * The server speaks English; lib/server-texts.ts holds every catalogue text in Hebrew too, which is more
 * than the embed page's own code. It is not on the embed's first load: it loads with the first refusal or
 * failed start the page has to show (a failure to load it shows the server's own words).
 */
const texts = () => import('@/lib/api-error');

/** What the server said in a refusal, in the page's language. */
export async function refusalText(error: ApiError): Promise<string | null> {
  try {
    return (await texts()).localizedDetail(error);
  } catch {
    return error.detail;
  }
}

/** A failed start's problem with the server's message and suggestion in the page's language. */
export async function inPageLanguage(problem: EmbedInitProblem): Promise<EmbedInitProblem> {
  if (problem.kind !== 'detail') return problem;
  try {
    const { serverText } = await import('@/lib/server-texts');
    return {
      kind: 'detail',
      message: serverText(problem.message),
      suggestion: problem.suggestion ? serverText(problem.suggestion) : null,
    };
  } catch {
    return problem;
  }
}

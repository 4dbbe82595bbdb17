/** What kind of request a recall query is: a question asked of the memory, or a statement or keywords to find. */

// A question opens with one of these (English), ends a clause with a Chinese question particle or holds a Chinese
// question word (哪 and 几 alone are left out: 哪部, 几次 also say "which" and "a few" in statements).
const EN_QUESTION_START =
  /^\s*(?:what|when|where|who|whom|whose|why|how|which|is|are|was|were|am|do|does|did|can|could|would|will|should|shall|has|have|had|may|might)\b/i;
const ZH_QUESTION = /[吗呢](?:[\s,.!;，。！；]|$)|谁|什么时候|为什么|怎么样|多少|是否|哪里|哪儿|有没有/;

/**
 * Whether the query asks a question ("What did Caroline research?", "他什么时候搬家的？"), rather than stating
 * something to find again (a remembered event, "deadlock staging invoice retry"). An answer often sits next to the
 * question's words (the turn after a question answers it), which is why the neighbours of a question's hits share
 * their score; the turn that holds a statement's words is itself what was asked for, and its neighbours are context.
 */
export function asksQuestion(query: string): boolean {
  return /[?？]/.test(query) || EN_QUESTION_START.test(query) || ZH_QUESTION.test(query);
}

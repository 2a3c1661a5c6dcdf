/**
 * The labelled set of curated-answer matching (issue 26): a curated question, a visitor's question, and
 * whether the visitor asked the same thing. Half are paraphrases (other words, other order, Hebrew
 * prefixes and suffixes, the other language), half near-misses that share most words but ask something
 * else (another service, another day, another kind of answer). Written for Kesher, in both languages.
 */
export interface CuratedPair {
  curated: string;
  asked: string;
  same: boolean;
}

export const curatedPairs: readonly CuratedPair[] = [
  // Paraphrases, English
  { curated: 'How much does a haircut cost?', asked: 'What is the price of a haircut?', same: true },
  { curated: 'How much does a haircut cost?', asked: 'haircut price?', same: true },
  { curated: 'Are you open on Saturday?', asked: 'Is the shop open on Saturdays?', same: true },
  { curated: 'Do you deliver to Haifa?', asked: 'Is there delivery to Haifa?', same: true },
  { curated: 'Can I bring my dog?', asked: 'Are dogs allowed to come with me?', same: true },
  { curated: 'Is there parking near the clinic?', asked: 'Where can I park near the clinic?', same: true },
  { curated: 'Do you have gluten free cakes?', asked: 'Are any of your cakes gluten free?', same: true },
  { curated: 'What is your refund policy?', asked: 'How do refunds work, what is the policy?', same: true },
  {
    curated: 'How much is a private pottery lesson?',
    asked: 'What does a private lesson in pottery cost?',
    same: true,
  },
  { curated: 'Do you accept credit cards?', asked: 'Can I pay by credit card?', same: true },
  // Paraphrases, Hebrew (prefixes, suffixes, order)
  { curated: 'כמה עולה תספורת?', asked: 'מה המחיר של התספורת?', same: true },
  { curated: 'האם אתם פתוחים בשבת?', asked: 'בשבת אתם פתוחים?', same: true },
  { curated: 'יש משלוחים לחיפה?', asked: 'האם אתם עושים משלוח לחיפה?', same: true },
  { curated: 'אפשר להביא כלב?', asked: 'מותר להגיע עם הכלב שלי?', same: true },
  { curated: 'יש חניה ליד המרפאה?', asked: 'איפה אפשר לחנות ליד המרפאה?', same: true },
  { curated: 'יש לכם עוגות ללא גלוטן?', asked: 'העוגות שלכם ללא גלוטן?', same: true },
  { curated: 'כמה עולה שיעור פרטי בקרמיקה?', asked: 'מה המחיר לשיעור קרמיקה פרטי?', same: true },
  // Paraphrases, the other language (the lexicon's words)
  { curated: 'How much does a haircut cost?', asked: 'כמה עולה תספורת?', same: true },
  { curated: 'האם אתם פתוחים בשבת?', asked: 'Are you open on Saturday?', same: true },
  { curated: 'Do you have gluten free cakes?', asked: 'יש עוגות בלי גלוטן?', same: true },
  { curated: 'יש חניה ליד המרפאה?', asked: 'Is there parking at the clinic?', same: true },
  // Near-misses, English
  { curated: 'How much does a haircut cost?', asked: 'How much does a manicure cost?', same: false },
  { curated: 'How much does a haircut cost?', asked: 'How long does a haircut take?', same: false },
  { curated: 'Are you open on Saturday?', asked: 'Are you open on Friday?', same: false },
  { curated: 'Are you open on Saturday?', asked: 'What is the price on Saturday?', same: false },
  { curated: 'Do you deliver to Haifa?', asked: 'Do you deliver to Eilat?', same: false },
  { curated: 'Can I bring my dog?', asked: 'Can I bring my cat?', same: false },
  { curated: 'Is there parking near the clinic?', asked: 'Is there a bus to the clinic?', same: false },
  { curated: 'Do you have gluten free cakes?', asked: 'Do you have vegan cakes?', same: false },
  { curated: 'What is your refund policy?', asked: 'What is your cancellation policy?', same: false },
  { curated: 'How much is a private pottery lesson?', asked: 'How much is a private yoga lesson?', same: false },
  { curated: 'Do you accept credit cards?', asked: 'Do you accept cash?', same: false },
  // Near-misses, Hebrew
  { curated: 'כמה עולה תספורת?', asked: 'כמה עולה מניקור?', same: false },
  { curated: 'האם אתם פתוחים בשבת?', asked: 'האם אתם פתוחים בשישי?', same: false },
  { curated: 'יש משלוחים לחיפה?', asked: 'יש משלוחים לאילת?', same: false },
  { curated: 'אפשר להביא כלב?', asked: 'אפשר להביא חתול?', same: false },
  { curated: 'יש חניה ליד המרפאה?', asked: 'יש אוטובוס למרפאה?', same: false },
  { curated: 'יש לכם עוגות ללא גלוטן?', asked: 'יש לכם עוגות טבעוניות?', same: false },
  { curated: 'כמה עולה שיעור פרטי בקרמיקה?', asked: 'כמה עולה שיעור פרטי ביוגה?', same: false },
  // Near-misses, the other language
  { curated: 'How much does a haircut cost?', asked: 'כמה עולה מניקור?', same: false },
  { curated: 'האם אתם פתוחים בשבת?', asked: 'Are you open on Sunday?', same: false },
  { curated: 'Do you have gluten free cakes?', asked: 'יש עוגות טבעוניות?', same: false },
];

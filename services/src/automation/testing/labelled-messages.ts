/**
 * A labelled set for workflow matching (`make bench-automation`, and the matcher's unit test): a small
 * business's workflows with their training phrases in Hebrew and English, and visitor messages — worded
 * unlike the phrases, with Hebrew prefixes, plurals and spellings — each labelled with the workflow that
 * should fire, or null when none should.
 */
export interface LabelledWorkflow {
  id: string;
  title: string;
  triggerCondition: string;
  trainingPhrases: string[];
}

export const labelledWorkflows: LabelledWorkflow[] = [
  {
    id: 'book',
    title: 'Book an appointment',
    triggerCondition: 'The visitor wants to book or schedule an appointment',
    trainingPhrases: [
      'I want to book an appointment',
      'schedule a meeting',
      'can I make a reservation',
      'אני רוצה לקבוע תור',
      'לקבוע פגישה',
      'הזמנת תור',
    ],
  },
  {
    id: 'cancel',
    title: 'Cancel an appointment',
    triggerCondition: 'The visitor wants to cancel an existing appointment',
    trainingPhrases: [
      'cancel my appointment',
      'I need to cancel the meeting',
      'call off my reservation',
      'לבטל את התור',
      'ביטול פגישה',
      'אני רוצה לבטל',
    ],
  },
  {
    id: 'order-status',
    title: 'Order status',
    triggerCondition: 'The visitor asks where their order or delivery is',
    trainingPhrases: [
      'where is my order',
      'track my package',
      'order status',
      'when will my delivery arrive',
      'איפה ההזמנה שלי',
      'מעקב משלוח',
      'מתי יגיע המשלוח',
    ],
  },
  {
    id: 'refund',
    title: 'Refund request',
    triggerCondition: 'The visitor wants their money back or to return a product',
    trainingPhrases: [
      'I want a refund',
      'return a product',
      'money back',
      'החזר כספי',
      'להחזיר מוצר',
      'אני רוצה את הכסף בחזרה',
    ],
  },
  {
    id: 'human',
    title: 'Talk to a person',
    triggerCondition: 'The visitor asks to speak with a human representative',
    trainingPhrases: [
      'talk to a human',
      'speak with a representative',
      'connect me to an agent',
      'לדבר עם נציג',
      'נציג אנושי',
      'תעבירו אותי לבן אדם',
    ],
  },
  {
    id: 'quote',
    title: 'Price quote',
    triggerCondition: 'The visitor asks for a price quote for a project',
    trainingPhrases: [
      'get a quote',
      'how much would a project cost',
      'price estimate',
      'הצעת מחיר',
      'כמה יעלה פרויקט',
      'הערכת עלות',
    ],
  },
  {
    id: 'password',
    title: 'Reset password',
    triggerCondition: 'The visitor cannot log in or forgot the password',
    trainingPhrases: [
      'forgot my password',
      'reset password',
      "can't log in to my account",
      'שכחתי סיסמה',
      'איפוס סיסמה',
      'לא מצליח להתחבר לחשבון',
    ],
  },
  {
    id: 'newsletter',
    title: 'Newsletter signup',
    triggerCondition: 'The visitor wants to subscribe to the newsletter or mailing list',
    trainingPhrases: [
      'subscribe to the newsletter',
      'join your mailing list',
      'sign me up for updates',
      'להירשם לניוזלטר',
      'הרשמה לרשימת תפוצה',
      'לקבל עדכונים במייל',
    ],
  },
];

export const labelledMessages: { message: string; expected: string | null }[] = [
  // English: book
  { message: 'Hi, I would like to book an appointment for next Tuesday', expected: 'book' },
  { message: 'Can I schedule a meeting with you?', expected: 'book' },
  { message: 'How do I make a reservation?', expected: 'book' },
  { message: 'I want to book a session', expected: 'book' },
  // Hebrew: book
  { message: 'היי, אפשר לקבוע תור ליום שלישי?', expected: 'book' },
  { message: 'רציתי לקבוע פגישה עם יועץ', expected: 'book' },
  { message: 'איך מזמינים תור?', expected: 'book' },
  { message: 'אני צריך תור לשבוע הבא', expected: 'book' },
  // cancel
  { message: 'I need to cancel my appointment tomorrow', expected: 'cancel' },
  { message: 'Please cancel the meeting we set', expected: 'cancel' },
  { message: 'Can you call off my reservation?', expected: 'cancel' },
  { message: 'אני רוצה לבטל את התור שלי', expected: 'cancel' },
  { message: 'צריך לבטל פגישה של מחר', expected: 'cancel' },
  { message: 'ביטול התור בבקשה', expected: 'cancel' },
  // order status
  { message: 'Where is my order? It has been a week', expected: 'order-status' },
  { message: 'How can I track my packages?', expected: 'order-status' },
  { message: 'What is the status of my order 5521?', expected: 'order-status' },
  { message: 'When will the delivery arrive?', expected: 'order-status' },
  { message: 'איפה ההזמנה שלי? הזמנתי לפני שבוע', expected: 'order-status' },
  { message: 'אפשר מעקב אחרי המשלוח?', expected: 'order-status' },
  { message: 'מתי המשלוח שלי יגיע', expected: 'order-status' },
  { message: 'מה הסטטוס של ההזמנות שלי', expected: 'order-status' },
  // refund
  { message: 'I would like a refund for my purchase', expected: 'refund' },
  { message: 'How do I return this product?', expected: 'refund' },
  { message: 'I want my money back', expected: 'refund' },
  { message: 'Can I get refunded?', expected: 'refund' },
  { message: 'אני מבקש החזר כספי על הקנייה', expected: 'refund' },
  { message: 'איך מחזירים מוצרים?', expected: 'refund' },
  { message: 'אני רוצה להחזיר את המוצר שקניתי', expected: 'refund' },
  // human
  { message: 'Can I talk to a real human please?', expected: 'human' },
  { message: 'I want to speak with a representative', expected: 'human' },
  { message: 'Connect me to an agent now', expected: 'human' },
  { message: 'אפשר לדבר עם נציג?', expected: 'human' },
  { message: 'תעבירו אותי לנציג אנושי בבקשה', expected: 'human' },
  { message: 'אני רוצה לדבר עם בן אדם אמיתי', expected: 'human' },
  // quote
  { message: 'Could I get a quote for a website project?', expected: 'quote' },
  { message: 'How much would a project like this cost?', expected: 'quote' },
  { message: 'I need a price estimate', expected: 'quote' },
  { message: 'אפשר לקבל הצעת מחיר לפרויקט?', expected: 'quote' },
  { message: 'כמה עולה פרויקט כזה?', expected: 'quote' },
  { message: 'אשמח להערכת עלויות', expected: 'quote' },
  // password
  { message: 'I forgot my password, help', expected: 'password' },
  { message: 'How do I reset the password?', expected: 'password' },
  { message: "I can't log in to my account", expected: 'password' },
  { message: 'שכחתי את הסיסמה שלי', expected: 'password' },
  { message: 'איך מאפסים סיסמה?', expected: 'password' },
  { message: 'אני לא מצליחה להתחבר לחשבון שלי', expected: 'password' },
  // newsletter
  { message: 'How do I subscribe to your newsletter?', expected: 'newsletter' },
  { message: 'Please add me to the mailing list', expected: 'newsletter' },
  { message: 'Sign me up for email updates', expected: 'newsletter' },
  { message: 'איך נרשמים לניוזלטר?', expected: 'newsletter' },
  { message: 'אני רוצה לקבל עדכונים במייל', expected: 'newsletter' },
  { message: 'תוסיפו אותי לרשימת התפוצה', expected: 'newsletter' },
  // none should fire
  { message: 'What are your opening hours?', expected: null },
  { message: 'Do you have parking near the office?', expected: null },
  { message: 'Tell me about your company history', expected: null },
  { message: 'Is the shop open on Saturday?', expected: null },
  { message: 'What materials are your chairs made of?', expected: null },
  { message: 'מה שעות הפתיחה שלכם?', expected: null },
  { message: 'יש חניה ליד המשרד?', expected: null },
  { message: 'ספרו לי על החברה', expected: null },
  { message: 'איפה אתם נמצאים?', expected: null },
  { message: 'מאיזה חומר עשויים הכיסאות?', expected: null },
  { message: 'Thanks, that was helpful!', expected: null },
  { message: 'תודה רבה, עזרתם לי', expected: null },
];

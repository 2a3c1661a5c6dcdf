import '../locales';
import { useTranslation } from 'react-i18next';

/**
 * A Q&A's two fields, as the Q&A tab and "Improve this answer" both ask for them; `answerLabel` names the
 * answer field (the tab's "Answer", the improve form's "The right answer").
 */
export function QaFields(props: {
  question: string;
  answer: string;
  onQuestion: (value: string) => void;
  onAnswer: (value: string) => void;
  answerLabel: 'answer' | 'rightAnswer';
  /** A question already written (from a visitor's): the owner goes straight to the answer. */
  autoFocusAnswer?: boolean;
}) {
  const { t } = useTranslation('qa');
  return (
    <>
      <div className="field">
        <label>
          {t('question')}
          <input
            dir="auto"
            value={props.question}
            maxLength={1000}
            onChange={(e) => props.onQuestion(e.target.value)}
          />
        </label>
      </div>
      <div className="field">
        <label>
          {t(props.answerLabel)}
          <textarea
            dir="auto"
            rows={3}
            autoFocus={props.autoFocusAnswer}
            value={props.answer}
            onChange={(e) => props.onAnswer(e.target.value)}
          />
        </label>
      </div>
    </>
  );
}

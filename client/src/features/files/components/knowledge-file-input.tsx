import '../locales';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptAttribute, fileProblem } from '../file-rules';

/** The optional first knowledge file on the create page, checked on selection (spec §5). */
export function KnowledgeFileInput({ onFile }: { onFile: (file: File | null) => void }) {
  const { t } = useTranslation('files');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <div className="field">
      <label htmlFor="first-file">{t('assistants:knowledgeFile')}</label>
      <input
        id="first-file"
        type="file"
        accept={acceptAttribute}
        aria-describedby="first-file-hint"
        aria-invalid={problem ? true : undefined}
        onChange={(e) => {
          const file = e.target.files?.[0] ?? null;
          const issue = file ? fileProblem(file) : null;
          setProblem(issue ? t(issue) : null);
          onFile(issue ? null : file);
        }}
      />
      <p id="first-file-hint" className="field-hint">
        {t('types')}
      </p>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '@/lib/paths';

/** The router's fallback screen (spec §2), also shown for paths outside the route table. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? error.status === 404
      ? t('errors:boundaryNotFound')
      : `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="page route-error" id="main">
      <h1 lang="en" dir="ltr">
        Unexpected Application Error!
      </h1>
      <p>{detail}</p>
      <a className="btn btn-primary" href={paths.home}>
        {t('errors:boundaryBack')}
      </a>
      <Link className="visually-hidden" to={paths.about}>
        {t('layout:about')}
      </Link>
    </main>
  );
}

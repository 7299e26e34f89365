/** The card of a page whose figures failed to load, with a link to try again. */
import type { Translate } from "../../services/platform/i18n.ts";
import { Card } from "./Card.tsx";

/** Props of {@link RetryCard}. */
export interface RetryCardProps {
  t: Translate;
  /** The texts' key prefix: `{prefix}.heading`, `{prefix}.message` and `{prefix}.retry`. */
  prefix: string;
  /** The page to load again. */
  href: string;
  testId: string;
}

/** An alert card: the heading, the message and the Retry button. */
export function RetryCard({ t, prefix, href, testId }: RetryCardProps) {
  return (
    <Card title={t(`${prefix}.heading`)} role="alert" data-testid={testId}>
      <p>{t(`${prefix}.message`)}</p>
      <a className="btn" href={href}>{t(`${prefix}.retry`)}</a>
    </Card>
  );
}

/**
 * The component kit: the shared building blocks of server-rendered pages.
 *
 * - {@link ResponsiveList}: one list rendered once, a table on wide screens and cards on
 *   phones through CSS alone (`static/styles/kit/responsive-list.css`).
 * - {@link PageHeader}: the page's title, subtitle and main actions.
 * - {@link FormHead}: the head of a form page, with its subtitle and the link back.
 * - {@link AddLink}: the plus button of a page, a link to a create form.
 * - {@link Card}: a titled section of a page (`<section class="card">` and its `<h2>`).
 * - {@link Facts}: a list of labelled values (`<dl>`).
 * - {@link FormError}: the error box of a form or page.
 * - {@link RetryCard}: the alert card of a page whose figures failed to load, with Retry.
 * - {@link NotFound}: the card of a page whose subject is missing, with the way back.
 * - {@link SearchForm}: the search box of a list page.
 * - {@link StatusBadge}: a coloured status pill.
 * - {@link Pager}: the pager of a server-paged list (links, no JavaScript).
 * - {@link Picker}, {@link PeriodPicker}: one labelled select of a GET picker form (a year, a
 *   period).
 */
export { type ListColumn, ResponsiveList, type ResponsiveListProps } from "./ResponsiveList.tsx";
export { PageHeader, type PageHeaderProps } from "./PageHeader.tsx";
export { FormHead, type FormHeadProps } from "./FormHead.tsx";
export { Card, type CardProps } from "./Card.tsx";
export { AddLink, type AddLinkProps } from "./AddLink.tsx";
export { Facts, type FactsProps } from "./Facts.tsx";
export { FormError, type FormErrorProps } from "./FormError.tsx";
export { NotFound, type NotFoundProps } from "./NotFound.tsx";
export { RetryCard, type RetryCardProps } from "./RetryCard.tsx";
export { SearchForm, type SearchFormProps } from "./SearchForm.tsx";
export { type BadgeTone, StatusBadge, type StatusBadgeProps } from "./StatusBadge.tsx";
export { pageNumbers, Pager, PagerOf, type PagerProps, type Paging, sortBy } from "./Pager.tsx";
export { PeriodPicker, type PeriodPickerProps, Picker, type PickerProps } from "./Picker.tsx";

import { useQuery } from '@tanstack/react-query';
import { apiAll, apiData, type TypeDef } from './api';

// The project's sections, by its schema: every page type, every collection, the blog and the media
// library, each with the admin API list that counts and lists it.

export interface Section {
  key: string;
  label: string;
  to: string;
  group: 'Pages' | 'Collections' | 'Blog' | 'Library';
  /** The list path of the admin API and its fixed parameters, counted with limit=1. */
  list: { path: string; params: Record<string, string> };
  kind: 'page' | 'item' | 'post' | 'term' | 'media';
}

export function useSections(project: string): { sections: Section[]; pending: boolean; error: unknown } {
  const pageTypes = useQuery({ queryKey: [project, 'page-types'], queryFn: () => apiAll<TypeDef>('/page-types', { project }) });
  const collections = useQuery({ queryKey: [project, 'collection-types'], queryFn: () => apiAll<TypeDef>('/collection-types', { project }) });
  const p = `/p/${encodeURIComponent(project)}`;
  const sections: Section[] = [
    ...(pageTypes.data ?? []).map((t): Section => ({ key: `page:${t.slug}`, label: t.name, to: `${p}/pages/${t.slug}`, group: 'Pages', list: { path: '/pages', params: { pageType: t.slug } }, kind: 'page' })),
    ...(collections.data ?? []).map((t): Section => ({ key: `item:${t.slug}`, label: t.name, to: `${p}/items/${t.slug}`, group: 'Collections', list: { path: '/collection-items', params: { collection: t.slug } }, kind: 'item' })),
    { key: 'blog:posts', label: 'Posts', to: `${p}/blog/posts`, group: 'Blog', list: { path: '/blog/posts', params: {} }, kind: 'post' },
    { key: 'blog:authors', label: 'Authors', to: `${p}/blog/authors`, group: 'Blog', list: { path: '/blog/authors', params: {} }, kind: 'term' },
    { key: 'blog:categories', label: 'Categories', to: `${p}/blog/categories`, group: 'Blog', list: { path: '/blog/categories', params: {} }, kind: 'term' },
    { key: 'blog:tags', label: 'Tags', to: `${p}/blog/tags`, group: 'Blog', list: { path: '/blog/tags', params: {} }, kind: 'term' },
    { key: 'media', label: 'Media', to: `${p}/media`, group: 'Library', list: { path: '/media', params: {} }, kind: 'media' },
  ];
  return { sections, pending: pageTypes.isPending || collections.isPending, error: pageTypes.error ?? collections.error };
}

export const listUrl = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params).toString()}`;

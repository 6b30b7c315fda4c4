// Stored names keep letters, digits, dot, dash and underscore from the client's name (its last
// path segment); everything else becomes `_`, so a name can never add a directory, hide a
// file or smuggle an encoded character into the storage path.

const maxLength = 120;

export function sanitiseFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? '';
  let name = last
    .normalize('NFC')
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}._-]/gu, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[._]+/, '');
  if (!name) name = 'file';
  if (name.length > maxLength) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, maxLength - extension.length) + extension;
  }
  return name;
}

/** The thumbnail's name beside its image; non-JPEG thumbnails are PNG. */
export function thumbnailName(name: string, type: string): string {
  const stem = name.replace(/\.[^.]*$/, '') || name;
  return `thumbnails_200_200-${type === 'image/jpeg' ? name : `${stem}.png`}`;
}

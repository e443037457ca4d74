import type { Extractor } from './types.js';

// Source code and configuration files: lines kept exactly (only line ends become \n), the programming
// language named by the file extension. No preview: the text is shown as it is.

export const CODE_LANGUAGES: Readonly<Record<string, string>> = {
  '.ts': 'typescript', '.tsx': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'javascript', '.jsx': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.py': 'python', '.pyi': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.kt': 'kotlin', '.kts': 'kotlin', '.scala': 'scala',
  '.c': 'c', '.h': 'c', '.cpp': 'cpp', '.cc': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.cs': 'csharp', '.m': 'objective-c',
  '.rb': 'ruby', '.php': 'php', '.swift': 'swift', '.dart': 'dart', '.lua': 'lua', '.pl': 'perl', '.r': 'r', '.jl': 'julia',
  '.ex': 'elixir', '.exs': 'elixir', '.erl': 'erlang', '.hs': 'haskell', '.ml': 'ocaml', '.clj': 'clojure', '.zig': 'zig', '.nim': 'nim',
  '.sh': 'shell', '.bash': 'shell', '.zsh': 'shell', '.fish': 'shell', '.ps1': 'powershell',
  '.json': 'json', '.jsonc': 'json', '.yaml': 'yaml', '.yml': 'yaml', '.toml': 'toml', '.ini': 'ini', '.xml': 'xml',
  '.css': 'css', '.scss': 'scss', '.sass': 'sass', '.less': 'less', '.sql': 'sql', '.graphql': 'graphql', '.proto': 'protobuf',
  '.vue': 'vue', '.svelte': 'svelte', '.tf': 'terraform', '.nix': 'nix', '.gradle': 'groovy', '.groovy': 'groovy', '.cmake': 'cmake',
};

export function codeLanguage(extension: string | undefined): string | undefined {
  return extension ? CODE_LANGUAGES[extension.toLowerCase()] : undefined;
}

export function createCodeExtractor(): Extractor {
  return {
    name: 'code',
    capabilities: ['text'],
    matches: (input) => input.text !== undefined && codeLanguage(input.extension) !== undefined,
    run: (input) => {
      const text = input.text!.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
      return { status: 'success', result: { title: '', text, codeLanguage: codeLanguage(input.extension), verbatim: true } };
    },
  };
}

/** Relative-time labels for injected memories ("3 days ago"), after Tideline's T1 labels (SEEDS §1.6). */
import { DAY_MS } from '../../core/clock.js';

/** Languages the labels come in. */
export type LabelLanguage = 'en' | 'zh';

/**
 * Calendar days (UTC) between `then` and `now` mapped as Tideline does: 0 today, 1 yesterday, ≤ 6 N days ago, ≤ 13
 * last week, ≤ 29 N weeks ago, ≤ 59 last month, else N months ago (SEEDS §1.6). Calendar days, not 24-hour spans:
 * a session at 23:00 yesterday read at 09:00 today is "yesterday" (Tideline's floor of hours called it "today").
 * A time in the future reads as today.
 */
export function relativeTime(then: number, now: number, lang: LabelLanguage = 'en'): string {
  const days = Math.max(0, Math.floor(now / DAY_MS) - Math.floor(then / DAY_MS));
  const zh = lang === 'zh';
  if (days === 0) return zh ? '今天' : 'today';
  if (days === 1) return zh ? '昨天' : 'yesterday';
  if (days <= 6) return zh ? `${days}天前` : `${days} days ago`;
  if (days <= 13) return zh ? '上周' : 'last week';
  if (days <= 29) return zh ? `${Math.floor(days / 7)}周前` : `${Math.floor(days / 7)} weeks ago`;
  if (days <= 59) return zh ? '上个月' : 'last month';
  const months = Math.floor(days / 30);
  return zh ? `${months}个月前` : `${months} months ago`;
}

/** The label language of a memory: its sleep language (the language its memories are written in). */
export function labelLanguage(config: { sleep: { language: string } }): LabelLanguage {
  return config.sleep.language === 'zh' ? 'zh' : 'en';
}

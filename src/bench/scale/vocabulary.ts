// Word lists of the synthetic corpus: common English and Chinese words by part of speech, plus a generated long tail.
import { createRng } from '../../script/seeded-rng.js';

function words(list: string): readonly string[] {
  return list.trim().split(/\s+/u);
}

/** Common nouns, roughly most frequent first (Zipf ranks follow list order). */
export const NOUNS = words(`
  time day work project meeting email report file code test bug release plan idea problem question answer
  team customer user server database query build deploy branch commit review design document note list task
  coffee lunch dinner book movie trip flight hotel train car bike phone laptop screen keyboard garden kitchen
  dog cat kid friend family doctor dentist appointment birthday party wedding concert game match race gym run
  weather rain snow morning evening weekend holiday budget invoice payment salary contract deadline schedule
  password account login error warning crash timeout latency memory cache index backup migration schema table
  recipe cake bread pasta salad soup tea juice wine beer cheese chocolate apple banana orange tomato potato
  painting photo camera guitar piano song album podcast article paper thesis lecture course exam grade school
  museum park beach mountain lake river forest city village street office studio shop market bank library
  ticket passport visa luggage map guide language lesson teacher student manager client vendor partner
  dashboard chart metric alert incident outage ticketing pipeline container cluster node volume network
  router firewall certificate token session cookie header request response endpoint handler worker queue
`);

/** Verbs as (present, past) pairs. */
export const VERBS: ReadonlyArray<readonly [string, string]> = words(`
  fix:fixed check:checked send:sent write:wrote read:read review:reviewed merge:merged deploy:deployed
  test:tested plan:planned book:booked buy:bought cook:cooked clean:cleaned call:called meet:met visit:visited
  move:moved finish:finished start:started cancel:cancelled update:updated install:installed restart:restarted
  debug:debugged paint:painted learn:learned teach:taught share:shared find:found lose:lost order:ordered
  pay:paid print:printed sign:signed schedule:scheduled rewrite:rewrote measure:measured compare:compared
  archive:archived restore:restored upgrade:upgraded configure:configured document:documented migrate:migrated
`).map((pair) => pair.split(':') as unknown as readonly [string, string]);

/** Adjectives. */
export const ADJECTIVES = words(`
  new old big small quick slow important urgent broken stable flaky noisy quiet cheap expensive fresh
  spicy sweet bitter warm cold long short early late weekly monthly remote local public private shared
  green red blue yellow favourite strange careful simple complex tiny huge bright dark happy tired
`);

/** First names of people who appear in conversations. */
export const PEOPLE = words(`
  Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent Victor
  Walter Yusuf Zara Amara Bilal Chen Dmitri Elena Farah Goran Hana Ines Jonas Kenji Leila Mateo Noor Priya
`);

/** Places. */
export const PLACES = words(`
  Berlin Paris Lisbon Tokyo Nairobi Toronto Austin Oslo Seoul Madrid Dublin Prague Kyoto Lima Cairo Sydney
  office home airport station library gym clinic cafe warehouse campus
`);

/** Time phrases. */
export const TIMES = [
  'today', 'tomorrow', 'yesterday', 'tonight', 'this morning', 'next week', 'last week', 'on Monday',
  'on Friday', 'this weekend', 'in March', 'before the holidays', 'after lunch', 'by Thursday',
] as const;

/** Chinese nouns, verbs, adjectives, people, places and time words. */
export const ZH = {
  nouns: words('项目 会议 报告 文件 代码 测试 问题 数据库 服务器 咖啡 午饭 晚饭 电影 旅行 航班 酒店 手机 电脑 花园 厨房 朋友 家人 医生 生日 预算 合同 密码 账号 错误 缓存 备份 菜谱 蛋糕 面包 茶 水果 照片 吉他 歌曲 文章 论文 课程 考试 博物馆 公园 海边 城市 商店 银行 图书馆 护照 地图'),
  verbs: words('修复 检查 发送 阅读 审查 合并 部署 测试 预订 购买 做饭 打扫 联系 拜访 完成 开始 取消 更新 安装 重启 学习 分享 整理 讨论'),
  adjectives: words('重要 紧急 稳定 便宜 昂贵 新鲜 安静 复杂 简单 有趣 麻烦 舒服'),
  people: words('小明 小红 张伟 王芳 李娜 刘洋 陈静 杨磊 赵敏 黄蕾'),
  places: words('北京 上海 广州 深圳 杭州 成都 西安 南京 公司 家里 机场 学校'),
  times: words('今天 明天 昨天 今晚 下周 上周 周一 周五 周末 三月 月底'),
} as const;

const SYLLABLES = words('ka ri to mo ne sa vel dra qu en ix or tal bel ron mi zu pa lo ter vis an cor del ful gan');

/**
 * `count` pronounceable made-up words (product names, project codes, jargon): the long tail of the
 * vocabulary that makes every corpus have rare, highly specific terms, as real work logs do.
 */
export function longTailWords(count: number, seed: number): string[] {
  const rng = createRng(seed);
  const out = new Set<string>();
  while (out.size < count) {
    const n = rng.between(2, 4);
    let w = '';
    for (let i = 0; i < n; i += 1) w += rng.pick(SYLLABLES);
    out.add(w);
  }
  return [...out];
}

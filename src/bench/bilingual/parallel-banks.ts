// Hand-written parallel template banks (English / Chinese) of the bilingual LoCoMo-shaped corpus.
// Every entry is a pair [English, Chinese] saying the same thing; questions paraphrase their evidence the
// same way in both languages (other verbs, other word order), so neither side gets an easier lexical match.

/** One text in both languages: [English, Chinese]. */
export type Bi = readonly [en: string, zh: string];

/** A slot value; `a` is the form with its article or measure word ("a tent", "一顶帐篷"). */
export interface SlotValue {
  readonly en: string;
  readonly zh: string;
  readonly enA?: string;
  readonly zhA?: string;
}

export type SlotName =
  | 'place' | 'rel' | 'friend' | 'hobby' | 'instrument' | 'pet' | 'petname' | 'food' | 'item' | 'role'
  | 'workplace' | 'book' | 'event' | 'course' | 'charity';

/** Facts of one group can be asked together by a multi-hop question ("Which cities has Emma been to?"). */
export type HopGroup = 'places' | 'hobby' | 'pet' | 'food' | 'purchase' | 'work' | 'family' | 'culture' | 'growth';

/**
 * One fact a speaker tells. Placeholders: `{S}` the teller's name (questions), `{T}` a relative time
 * ("last weekend" / "上周末"), `{slot}` a slot value and `{slot:a}` its form with article or measure word.
 */
export interface FactTemplate {
  readonly id: string;
  readonly hop: HopGroup;
  readonly slots: readonly SlotName[];
  /** The teller's sentence (the evidence turn). */
  readonly say: Bi;
  /** A second sentence the teller adds two turns later (after the other speaker's reaction). */
  readonly detail?: Bi;
  /** The single-hop question (category 4), a paraphrase of the evidence. */
  readonly ask: Bi;
  /** Which turns answer `ask`; default the `say` turn. */
  readonly askEvidence?: 'say' | 'detail' | 'both';
  /** The answer of `ask`: a slot's value or a fixed text. */
  readonly answer: SlotName | Bi;
  /** The temporal question (category 2); present exactly when `say` holds `{T}`. */
  readonly when?: Bi;
  /** `{T}` is the subject ("Yesterday was my first day"): only times naming one day fit. */
  readonly oneDay?: boolean;
}

const v = (en: string, zh: string, enA?: string, zhA?: string): SlotValue => ({ en, zh, ...(enA ? { enA } : {}), ...(zhA ? { zhA } : {}) });

/** Slot banks; the same index is the same value in both languages. */
export const SLOTS: Record<SlotName, readonly SlotValue[]> = {
  place: [
    v('Kyoto', '京都'), v('Paris', '巴黎'), v('Barcelona', '巴塞罗那'), v('Iceland', '冰岛'), v('Chengdu', '成都'),
    v('Lisbon', '里斯本'), v('Vancouver', '温哥华'), v('Istanbul', '伊斯坦布尔'), v('Bali', '巴厘岛'), v('Prague', '布拉格'),
    v('Sydney', '悉尼'), v("Xi'an", '西安'), v('Seoul', '首尔'), v('Rome', '罗马'), v('Cairo', '开罗'), v('Hangzhou', '杭州'),
  ],
  rel: [
    v('sister', '姐姐'), v('brother', '哥哥'), v('mom', '妈妈'), v('dad', '爸爸'), v('cousin', '表妹'),
    v('grandma', '奶奶'), v('uncle', '舅舅'), v('aunt', '姑姑'), v('grandpa', '爷爷'), v('little brother', '弟弟'),
  ],
  friend: [
    v('best friend', '最好的朋友'), v('sister', '姐姐'), v('neighbour', '邻居'), v('college roommate', '大学室友'),
    v('cousin', '表姐'), v('coworker', '同事'), v('brother', '哥哥'),
  ],
  hobby: [
    v('pottery', '陶艺'), v('rock climbing', '攀岩'), v('watercolor painting', '水彩画'), v('yoga', '瑜伽'),
    v('calligraphy', '书法'), v('salsa dancing', '萨尔萨舞'), v('birdwatching', '观鸟'), v('chess', '国际象棋'),
    v('photography', '摄影'), v('kayaking', '皮划艇'), v('archery', '射箭'), v('fencing', '击剑'),
  ],
  instrument: [
    v('piano', '钢琴'), v('violin', '小提琴'), v('guitar', '吉他'), v('cello', '大提琴'), v('drums', '架子鼓'),
    v('ukulele', '尤克里里'), v('flute', '长笛'), v('saxophone', '萨克斯'),
  ],
  pet: [
    v('golden retriever', '金毛'), v('tabby cat', '虎斑猫'), v('parrot', '鹦鹉'), v('rabbit', '兔子'), v('corgi', '柯基'),
    v('hamster', '仓鼠'), v('turtle', '乌龟'), v('husky', '哈士奇'),
  ],
  petname: [
    v('Biscuit', '饼干'), v('Mochi', '年糕'), v('Pepper', '花椒'), v('Luna', '月亮'), v('Coco', '可可'),
    v('Peanut', '花生'), v('Bean', '豆豆'), v('Snowball', '雪球'),
  ],
  food: [
    v('lasagna', '千层面'), v('dumplings', '饺子'), v('mapo tofu', '麻婆豆腐'), v('ramen', '拉面'), v('paella', '西班牙海鲜饭'),
    v('beef stew', '炖牛肉'), v('apple pie', '苹果派'), v('sushi', '寿司'), v('curry', '咖喱'), v('hot pot', '火锅'),
  ],
  item: [
    v('used car', '二手车', 'a used car', '一辆二手车'), v('standing desk', '升降桌', 'a standing desk', '一张升降桌'),
    v('laptop', '笔记本电脑', 'a laptop', '一台笔记本电脑'), v('road bike', '公路车', 'a road bike', '一辆公路车'),
    v('camera', '相机', 'a camera', '一台相机'), v('sofa', '沙发', 'a sofa', '一张沙发'),
    v('pair of hiking boots', '登山鞋', 'a pair of hiking boots', '一双登山鞋'), v('telescope', '望远镜', 'a telescope', '一台望远镜'),
    v('coffee machine', '咖啡机', 'a coffee machine', '一台咖啡机'), v('tent', '帐篷', 'a tent', '一顶帐篷'),
  ],
  role: [
    v('team lead', '组长'), v('senior designer', '高级设计师'), v('head nurse', '护士长'), v('project manager', '项目经理'),
    v('store manager', '店长'), v('deputy editor', '副主编'),
  ],
  workplace: [
    v('bakery', '面包店'), v('hospital', '医院'), v('bank', '银行'), v('design studio', '设计工作室'), v('high school', '高中'),
    v('startup', '创业公司'), v('museum', '博物馆'), v('public library', '公共图书馆'),
  ],
  book: [
    v('"The Little Prince"', '《小王子》'), v('"Dune"', '《沙丘》'), v('"One Hundred Years of Solitude"', '《百年孤独》'),
    v('"The Three-Body Problem"', '《三体》'), v('"Pride and Prejudice"', '《傲慢与偏见》'), v('"Sapiens"', '《人类简史》'),
    v('"The Old Man and the Sea"', '《老人与海》'), v('"Norwegian Wood"', '《挪威的森林》'),
  ],
  event: [
    v('jazz concert', '爵士音乐会'), v('film festival', '电影节'), v('food festival', '美食节'), v('art exhibition', '艺术展'),
    v('comedy show', '脱口秀'), v('opera', '歌剧'), v('lantern festival', '灯会'), v('flower show', '花展'),
  ],
  course: [
    v('Spanish', '西班牙语'), v('Japanese', '日语'), v('coding', '编程'), v('first aid', '急救'), v('French', '法语'),
    v('sign language', '手语'), v('accounting', '会计'),
  ],
  charity: [
    v('animal shelter', '动物收容所'), v('food bank', '食物银行'), v('nursing home', '养老院'), v('community garden', '社区花园'),
    v("children's hospital", '儿童医院'), v('homeless shelter', '流浪者救助站'),
  ],
};

/** 44 facts a speaker tells, with their single-hop and temporal questions. */
export const FACTS: readonly FactTemplate[] = [
  // Places
  {
    id: 'trip-with', hop: 'places', slots: ['place', 'rel'],
    say: ['{T} I got back from {place}. My {rel} and I walked about twenty kilometres a day there!', '{T}我刚从{place}回来。我和{rel}在那边每天走二十公里！'],
    ask: ['Who accompanied {S} on the {place} trip?', '{S}去{place}旅行时是谁陪着的？'], answer: 'rel',
    when: ['When did {S} visit {place}?', '{S}什么时候去的{place}？'],
  },
  {
    id: 'trip-food', hop: 'places', slots: ['place', 'food'],
    say: ['{T} I was in {place} and ate {food} every single night, so good.', '{T}我在{place}，每天晚上都吃{food}，太好吃了。'],
    ask: ['What dish did {S} keep eating while staying in {place}?', '{S}待在{place}的那几天天天吃的是什么？'], answer: 'food',
    when: ['When was {S} staying in {place}?', '{S}是什么时候待在{place}的？'],
  },
  {
    id: 'trip-plan', hop: 'places', slots: ['place', 'rel'],
    say: ["I just booked flights to {place} for my {rel}'s birthday, we leave in two weeks.", '我刚订了去{place}的机票，给我{rel}过生日，两周后出发。'],
    ask: ["Where is {S} flying for the {rel}'s birthday?", '{S}要飞去哪里给{rel}庆祝生日？'], answer: 'place',
  },
  {
    id: 'trip-hike', hop: 'places', slots: ['place'],
    say: ['{T} we hiked up a mountain near {place} and got caught in the rain on the way down.', '{T}我们在{place}附近爬了一座山，下山的时候被雨淋了。'],
    ask: ['Where did {S} go trekking and end up soaked?', '{S}在哪里徒步结果浑身湿透了？'], answer: 'place',
    when: ['When did {S} climb the mountain near {place}?', '{S}什么时候在{place}附近登的山？'],
  },
  {
    id: 'trip-passport', hop: 'places', slots: ['place'],
    say: ['{T} I lost my passport in {place}, it took the whole afternoon at the embassy to sort out.', '{T}我在{place}把护照弄丢了，在大使馆折腾了一下午才办好。'],
    ask: ['In which city did {S} misplace the passport?', '{S}的护照是在哪个城市丢的？'], answer: 'place',
    when: ['When did {S} lose the passport?', '{S}什么时候丢了护照？'],
  },
  {
    id: 'conference', hop: 'places', slots: ['place'],
    say: ['{T} I gave a talk at a conference in {place}, about three hundred people showed up.', '{T}我在{place}的一个会议上做了演讲，来了大概三百人。'],
    ask: ['In which city did {S} speak in front of a big audience?', '{S}在哪个城市面对很多观众发了言？'], answer: 'place',
    when: ['When did {S} present at the {place} conference?', '{S}什么时候在{place}的会议上讲的？'],
  },
  {
    id: 'half-marathon', hop: 'places', slots: ['place'],
    say: ['{T} I ran the half marathon in {place}, my legs are still complaining.', '{T}我在{place}跑了半程马拉松，腿到现在还在抗议。'],
    ask: ['Where did {S} complete a 21 km race?', '{S}是在哪里跑完二十一公里比赛的？'], answer: 'place',
    when: ['When did {S} race in {place}?', '{S}什么时候在{place}跑的比赛？'],
  },
  {
    id: 'trip-souvenir', hop: 'places', slots: ['place', 'rel'],
    say: ['{T} I returned from {place} with a silk scarf for my {rel}.', '{T}我从{place}回来，给{rel}带了一条丝巾。'],
    ask: ['What keepsake did {S} pick up for the {rel}?', '{S}给{rel}挑了什么纪念品？'], answer: ['a silk scarf', '一条丝巾'],
    when: ['When did {S} return from {place} with a present?', '{S}什么时候带着礼物从{place}回来的？'],
  },
  // Hobbies
  {
    id: 'hobby-class', hop: 'hobby', slots: ['hobby'],
    say: ['{T} I signed up for a {hobby} class at the community center, my hands are still sore.', '{T}我在社区中心报了一个{hobby}班，手到现在还酸。'],
    ask: ['What lessons did {S} enrol in near home?', '{S}在家附近报名上了什么课？'], answer: 'hobby',
    when: ['When did {S} start the {hobby} lessons?', '{S}什么时候开始上{hobby}课的？'],
  },
  {
    id: 'hobby-years', hop: 'hobby', slots: ['hobby'],
    say: ["Honestly {hobby} is what keeps me sane, I've done it every Sunday for six years.", '说实话，{hobby}让我保持理智，我每个星期天都做，已经六年了。'],
    ask: ['What has {S} been doing weekly for years to stay calm?', '{S}这些年每周靠什么保持平静？'], answer: 'hobby',
  },
  {
    id: 'hobby-contest', hop: 'hobby', slots: ['hobby'],
    say: ['{T} I entered my first {hobby} competition and came third!', '{T}我参加了人生第一次{hobby}比赛，拿了第三名！'],
    ask: ['What place did {S} finish in the {hobby} contest?', '{S}在{hobby}竞赛里排第几？'], answer: ['third', '第三名'],
    when: ['When did {S} enter the {hobby} competition?', '{S}什么时候参加的{hobby}比赛？'],
  },
  {
    id: 'instrument-learn', hop: 'hobby', slots: ['instrument'],
    say: ["I've started learning the {instrument}, my teacher says I practise too fast.", '我开始学{instrument}了，老师说我练得太急。'],
    ask: ['Which instrument is {S} taking lessons on?', '{S}在上哪种乐器的课？'], answer: 'instrument',
  },
  {
    id: 'instrument-wedding', hop: 'hobby', slots: ['instrument'],
    say: ["{T} I played the {instrument} at my cousin's wedding and my knees were shaking.", '{T}我在表妹的婚礼上演奏了{instrument}，腿一直在抖。'],
    ask: ['What did {S} perform on at the ceremony?', '{S}在典礼上用什么乐器表演了？'], answer: 'instrument',
    when: ["When did {S} play at a relative's wedding?", '{S}什么时候在亲戚的婚礼上表演的？'],
  },
  {
    id: 'hobby-injury', hop: 'hobby', slots: ['hobby'],
    say: ["{T} I sprained my ankle during {hobby}, so I'm on crutches for a while.", '{T}我在{hobby}的时候扭伤了脚踝，得拄一阵子拐杖。'],
    ask: ['How did {S} hurt that foot?', '{S}的脚是怎么受的伤？'], answer: 'hobby',
    when: ['When did {S} injure the ankle?', '{S}什么时候把脚踝扭了？'],
  },
  // Pets
  {
    id: 'pet-adopt', hop: 'pet', slots: ['pet', 'petname'],
    say: ['{T} we adopted a {pet} from the shelter!', '{T}我们从收容所领养了一只{pet}！'],
    detail: ['We named it {petname}, it already sleeps on my bed.', '我们给它取名叫{petname}，它已经睡在我床上了。'],
    ask: ["What is the name of {S}'s {pet}?", '{S}的{pet}叫什么名字？'], askEvidence: 'both', answer: 'petname',
    when: ['When did {S} bring home the {pet}?', '{S}什么时候把{pet}领回家的？'],
  },
  {
    id: 'pet-vet', hop: 'pet', slots: ['pet', 'petname'],
    say: ['{T} I had to rush our {pet} {petname} to the vet because he swallowed a sock.', '{T}我家的{pet}{petname}吞了一只袜子，我赶紧带它去看了兽医。'],
    ask: ['Why did {S} take {petname} to the animal doctor?', '{S}为什么带{petname}去宠物医院？'], answer: ['it swallowed a sock', '吞了一只袜子'],
    when: ['When did {petname} need emergency care?', '{petname}什么时候需要紧急救治？'],
  },
  {
    id: 'pet-trick', hop: 'pet', slots: ['pet', 'petname'],
    say: ['My {pet} {petname} finally learned to ring a bell when it wants to go out.', '我的{pet}{petname}终于学会了想出门就摇铃。'],
    ask: ["What trick has {S}'s {pet} picked up?", '{S}的{pet}掌握了什么本领？'], answer: ['ringing a bell to go out', '想出门就摇铃'],
  },
  // Food
  {
    id: 'cook-birthday', hop: 'food', slots: ['food', 'rel'],
    say: ["{T} I cooked {food} for my {rel}'s birthday, first time making it from scratch.", '{T}我给{rel}过生日，第一次从头做了{food}。'],
    ask: ["What dish did {S} prepare for the {rel}'s birthday?", '{S}为{rel}的生日准备了什么菜？'], answer: 'food',
    when: ['When did {S} make {food} from scratch?', '{S}什么时候从头做的{food}？'],
  },
  {
    id: 'comfort-food', hop: 'food', slots: ['food'],
    say: ['{food} is my comfort food, I could eat it three times a week.', '{food}是我的治愈系美食，一周吃三次都行。'],
    ask: ['Which meal does {S} find most soothing?', '哪道菜最能让{S}感到安慰？'], answer: 'food',
  },
  {
    id: 'smoke-alarm', hop: 'food', slots: ['food'],
    say: ['{T} I tried to make {food} and set off the smoke alarm, total disaster.', '{T}我试着做{food}，结果把烟雾报警器弄响了，简直是灾难。'],
    ask: ['What was {S} cooking when the alarm went off?', '{S}做什么菜的时候报警器响了？'], answer: 'food',
    when: ["When did {S}'s kitchen fill with smoke?", '{S}家厨房什么时候满是烟雾？'],
  },
  {
    id: 'new-restaurant', hop: 'food', slots: ['food'],
    say: ["{T} a new {food} place opened near my office and I've been there twice already.", '{T}我公司附近新开了一家{food}店，我已经去了两次。'],
    ask: ["What kind of restaurant opened close to {S}'s workplace?", '{S}单位旁边开了一家什么餐馆？'], answer: 'food',
    when: ["When did the {food} restaurant near {S}'s office open?", '{S}公司附近那家{food}店是什么时候开的？'],
  },
  // Purchases
  {
    id: 'buy-sale', hop: 'purchase', slots: ['item'],
    say: ['{T} I finally bought {item:a}, it was on sale for half price.', '{T}我终于买了{item:a}，打五折。'],
    ask: ['What did {S} get at a 50% discount?', '{S}半价入手了什么？'], answer: 'item',
    when: ['When did {S} purchase the {item}?', '{S}什么时候购入的{item}？'],
  },
  {
    id: 'buy-gift', hop: 'purchase', slots: ['item', 'rel'],
    say: ['{T} I got my {rel} {item:a} as a surprise, and there were happy tears.', '{T}我送了{rel}{item:a}作为惊喜，对方都感动哭了。'],
    ask: ['What surprise present did {S} give the {rel}?', '{S}给{rel}准备了什么惊喜礼物？'], answer: 'item',
    when: ['When did {S} surprise the {rel} with a gift?', '{S}什么时候给了{rel}一个惊喜？'],
  },
  {
    id: 'buy-regret', hop: 'purchase', slots: ['item'],
    say: ["I kind of regret the {item} I bought, it's just taking up space in the corner.", '我有点后悔买那个{item}，它就放在角落里占地方。'],
    ask: ['Which purchase does {S} feel was a mistake?', '{S}觉得自己哪样东西买错了？'], answer: 'item',
  },
  {
    id: 'sell-online', hop: 'purchase', slots: ['item'],
    say: ['{T} I sold my old {item} online to a student for almost nothing.', '{T}我把旧的{item}在网上便宜卖给了一个学生。'],
    ask: ['What did {S} let a student have cheaply?', '{S}低价转让给学生的是什么？'], answer: 'item',
    when: ['When did {S} get rid of the old {item}?', '{S}什么时候把旧{item}处理掉的？'],
  },
  // Work
  {
    id: 'promotion', hop: 'work', slots: ['role'],
    say: ["{T} my manager told me I'm getting promoted to {role}!", '{T}经理告诉我，我要升职做{role}了！'],
    ask: ['What new position is {S} moving into?', '{S}即将担任什么新职位？'], answer: 'role',
    when: ['When did {S} hear about the promotion?', '{S}什么时候得知自己升职的？'],
  },
  {
    id: 'new-job', hop: 'work', slots: ['workplace'],
    say: ['{T} was my first day at the {workplace}, everyone was so welcoming.', '{T}是我在{workplace}上班的第一天，大家都很热情。'],
    ask: ['Where did {S} recently begin working?', '{S}最近开始在哪里工作？'], answer: 'workplace',
    when: ['When did {S} start the job at the {workplace}?', '{S}哪天开始在{workplace}工作的？'], oneDay: true,
  },
  {
    id: 'app-launch', hop: 'work', slots: ['food'],
    say: ["{T} we finally launched the app I've been building for a year, my team celebrated with {food}.", '{T}我们终于上线了我做了一年的应用，团队吃{food}庆祝。'],
    ask: ["How did {S}'s team mark the release?", '{S}的团队用什么方式庆贺发布？'], answer: 'food',
    when: ["When did {S}'s app go live?", '{S}的应用什么时候发布的？'],
  },
  {
    id: 'double-shifts', hop: 'work', slots: ['workplace'],
    say: ["Work at the {workplace} has been crazy, we're short three people so I'm doing double shifts.", '{workplace}的工作最近忙疯了，缺了三个人，我只能上两班。'],
    ask: ['Why is {S} working twice the usual hours?', '{S}为什么要工作双倍的时间？'], answer: ['three people are missing', '缺了三个人'],
  },
  {
    id: 'resign', hop: 'work', slots: ['workplace'],
    say: ['{T} I handed in my resignation at the {workplace}, I want to go back to school.', '{T}我向{workplace}递交了辞呈，想回学校读书。'],
    ask: ['Why is {S} quitting the {workplace}?', '{S}为什么要离开{workplace}？'], answer: ['to go back to school', '想回学校读书'],
    when: ['When did {S} give notice?', '{S}什么时候提出离职的？'],
  },
  // Family and friends
  {
    id: 'wedding-speech', hop: 'family', slots: ['friend'],
    say: ["{T} was my {friend}'s wedding, I gave a speech and forgot half of it.", '{T}是我{friend}的婚礼，我致辞的时候忘了一半。'],
    ask: ['Whose wedding did {S} give a toast at?', '{S}在谁的婚礼上讲了话？'], answer: 'friend',
    when: ["When did {S}'s {friend} get married?", '{S}的{friend}什么时候结的婚？'], oneDay: true,
  },
  {
    id: 'knee-surgery', hop: 'family', slots: ['rel'],
    say: ["{T} my {rel} had knee surgery, so I've been driving to the hospital every evening.", '{T}我{rel}做了膝盖手术，所以我每天晚上都开车去医院。'],
    ask: ["What kind of surgery did {S}'s {rel} undergo?", '{S}的{rel}动了什么手术？'], answer: ['knee surgery', '膝盖手术'],
    when: ["When did {S}'s {rel} have surgery?", '{S}的{rel}什么时候动的手术？'],
  },
  {
    id: 'family-visit', hop: 'family', slots: ['rel', 'place'],
    say: ['{T} my {rel} flew in from {place} to stay with us for a week.', '{T}我{rel}从{place}飞过来，在我们家住一个星期。'],
    ask: ["Where did {S}'s {rel} travel from to visit?", '{S}的{rel}是从哪里来探望的？'], answer: 'place',
    when: ["When did {S}'s {rel} arrive?", '{S}的{rel}什么时候到的？'],
  },
  {
    id: 'new-baby', hop: 'family', slots: ['friend'],
    say: ['{T} my {friend} had a baby girl, she weighed just under three kilos.', '{T}我{friend}生了一个女儿，刚好不到三公斤。'],
    ask: ["Who in {S}'s life just became a parent?", '{S}身边谁刚当了父母？'], answer: 'friend',
    when: ["When was the daughter of {S}'s {friend} born?", '{S}的{friend}的孩子什么时候出生的？'],
  },
  {
    id: 'anniversary', hop: 'family', slots: ['place'],
    say: ['{T} my parents celebrated their thirtieth anniversary with a dinner in {place}.', '{T}我父母在{place}吃了一顿晚餐，庆祝结婚三十周年。'],
    ask: ["Where did {S}'s parents mark thirty years of marriage?", '{S}的父母在哪里纪念成婚三十年？'], answer: 'place',
    when: ["When was the anniversary dinner of {S}'s parents?", '{S}父母的周年纪念晚餐是什么时候？'],
  },
  {
    id: 'moving-help', hop: 'family', slots: ['friend'],
    say: ['{T} I helped my {friend} move into a new apartment, fifth floor and no elevator.', '{T}我帮{friend}搬进了新公寓，五楼，没有电梯。'],
    ask: ['Who did {S} help carry furniture up the stairs?', '{S}帮谁把家具搬上楼？'], answer: 'friend',
    when: ['When did {S} help with the move?', '{S}什么时候帮忙搬的家？'],
  },
  // Books and events
  {
    id: 'book-finish', hop: 'culture', slots: ['book'],
    say: ['{T} I finished reading {book}, the ending made me cry on the bus.', '{T}我读完了{book}，结局让我在公交车上哭了。'],
    ask: ['Which novel brought {S} to tears on public transport?', '哪本小说让{S}在公共交通上流泪了？'], answer: 'book',
    when: ['When did {S} get through {book}?', '{S}什么时候看完的{book}？'],
  },
  {
    id: 'book-club', hop: 'culture', slots: ['book'],
    say: ['Our book club picked {book} for next month, have you read it?', '我们读书会下个月选了{book}，你读过吗？'],
    ask: ["What is {S}'s reading group going to discuss?", '{S}的书友会接下来要讨论哪本书？'], answer: 'book',
  },
  {
    id: 'event-late', hop: 'culture', slots: ['event'],
    say: ['{T} I went to a {event} downtown and stayed until midnight.', '{T}我去市中心看了一场{event}，一直待到半夜。'],
    ask: ['What did {S} attend in the city centre until late?', '{S}在市区参加了什么活动，很晚才走？'], answer: 'event',
    when: ['When did {S} go to the {event}?', '{S}什么时候去的{event}？'],
  },
  {
    id: 'event-backstage', hop: 'culture', slots: ['event'],
    say: ['{T} I helped out backstage at the {event}, carrying boxes for eight hours.', '{T}我在{event}后台帮忙，搬了八个小时的箱子。'],
    ask: ['What event did {S} work behind the scenes at?', '{S}在什么活动的幕后出力？'], answer: 'event',
    when: ['When did {S} volunteer at the {event}?', '{S}什么时候在{event}做的志愿者？'],
  },
  // Learning and giving back
  {
    id: 'evening-course', hop: 'growth', slots: ['course'],
    say: ['{T} I started an evening {course} course, the teacher is really strict.', '{T}我开始上{course}夜校课程，老师特别严格。'],
    ask: ['What subject is {S} studying at night school?', '{S}晚上在进修什么科目？'], answer: 'course',
    when: ['When did {S} begin the {course} course?', '{S}什么时候开始上{course}课的？'],
  },
  {
    id: 'exam-passed', hop: 'growth', slots: ['course'],
    say: ['{T} I passed my {course} exam, all those flashcards paid off.', '{T}我通过了{course}考试，那些单词卡没白背。'],
    ask: ['Which test did {S} pass thanks to the flashcards?', '{S}靠单词卡通过了什么测验？'], answer: 'course',
    when: ['When did {S} pass the {course} test?', '{S}什么时候通过的{course}测验？'],
  },
  {
    id: 'volunteer-day', hop: 'growth', slots: ['charity'],
    say: ['{T} I spent the day volunteering at the {charity}, it really put things in perspective.', '{T}我在{charity}做了一天义工，让我想通了很多事。'],
    ask: ['Where did {S} do unpaid work for a day?', '{S}在哪里当了一天志愿者？'], answer: 'charity',
    when: ['When did {S} help at the {charity}?', '{S}什么时候去{charity}帮忙的？'],
  },
  {
    id: 'charity-run', hop: 'growth', slots: ['charity'],
    say: ['{T} I ran a charity race and raised four hundred dollars for the {charity}.', '{T}我参加了一场慈善跑，为{charity}筹了四百美元。'],
    ask: ['Which cause did {S} collect money for by running?', '{S}跑步筹款是为了哪个机构？'], answer: 'charity',
    when: ['When did {S} do the charity run?', '{S}什么时候跑的慈善赛？'],
  },
];

/** The multi-hop question (category 1) of each group: it gathers the teller's facts across sessions. */
export const HOP_QUESTIONS: Record<HopGroup, Bi> = {
  places: ['Which cities has {S} been to?', '{S}去过哪些城市？'],
  hobby: ['What pastimes does {S} have?', '{S}平时有哪些爱好？'],
  pet: ['What animals does {S} look after?', '{S}养了哪些动物？'],
  food: ['Which dishes has {S} talked about?', '{S}聊到过哪些菜？'],
  purchase: ['What items has {S} bought or sold?', '{S}买卖过哪些东西？'],
  work: ["How has {S}'s career been going?", '{S}的工作最近有什么变化？'],
  family: ["What has been happening with {S}'s family and friends?", '{S}的家人和朋友最近发生了哪些事？'],
  culture: ['What books and events has {S} mentioned?', '{S}提到过哪些书和活动？'],
  growth: ['What has {S} done to learn or give back?', '{S}在学习和公益方面做了哪些事？'],
};

/** Chit-chat carrying no fact; `{O}` is the other speaker's name. Some touch the facts' topics, as talk does. */
export const FILLERS: readonly Bi[] = [
  ['Hey! How have you been lately?', '嘿！最近过得怎么样？'],
  ['Pretty good, just busy as usual.', '挺好的，就是跟平时一样忙。'],
  ["Haha, that's so true.", '哈哈，确实是这样。'],
  ['I know what you mean.', '我懂你的意思。'],
  ["It's been raining all week here, I'm so tired of it.", '这边下了一整周的雨，我都烦死了。'],
  ['Did you sleep well? You sound tired.', '你睡得好吗？听起来你很累。'],
  ["I've been trying to drink more water.", '我最近在努力多喝水。'],
  ['Same here, honestly.', '说实话，我也一样。'],
  ["That's wild, I had no idea.", '太夸张了，我完全不知道。'],
  ['What are you up to this weekend?', '你这个周末打算干什么？'],
  ['Nothing much, probably just resting at home.', '没什么安排，大概就在家休息。'],
  ["I can't believe how fast this year is going.", '真不敢相信今年过得这么快。'],
  ['You always know how to cheer me up.', '你总是知道怎么让我开心起来。'],
  ['Thanks, that means a lot to me.', '谢谢，这对我来说很重要。'],
  ["Let's grab coffee soon, okay?", '我们找时间一起喝杯咖啡吧？'],
  ["Definitely, just text me when you're free.", '当然，你有空就给我发消息。'],
  ["I've been watching way too many cooking videos.", '我最近看了太多做饭的视频。'],
  ['My phone battery dies so fast these days.', '我的手机电池最近掉电特别快。'],
  ['Traffic this morning was terrible.', '今天早上堵车堵得厉害。'],
  ['Do you ever feel like you need a long vacation?', '你有没有觉得自己需要一个长假？'],
  ['All the time, especially on Mondays.', '经常，尤其是星期一。'],
  ["I'm thinking of redecorating my living room.", '我在考虑重新布置客厅。'],
  ['Oh nice, what style are you going for?', '不错啊，你想弄成什么风格？'],
  ['Something cozy, lots of plants maybe.', '温馨一点的，可能放很多绿植。'],
  ['I should really start exercising again.', '我真该重新开始锻炼了。'],
  ["Tell me about it, I've been so lazy.", '别提了，我最近也特别懒。'],
  ['Have you seen any good movies recently?', '你最近看了什么好电影吗？'],
  ['Not really, nothing has grabbed me lately.', '没有，最近没什么吸引我的。'],
  ['I keep meaning to read more books but never do.', '我一直想多读点书，但总是做不到。'],
  ["My neighbour's dog barks every night at ten.", '我邻居家的狗每天晚上十点都叫。'],
  ['That would drive me crazy.', '那我肯定会被逼疯的。'],
  ["How's your family doing?", '你家里人都好吗？'],
  ["Everyone's fine, thanks for asking.", '大家都挺好的，谢谢关心。'],
  ['I tried a new recipe but it was just okay.', '我试了一个新菜谱，但味道一般。'],
  ["I've been saving money for something big.", '我一直在为一件大事存钱。'],
  ['Ooh, mysterious! Tell me later.', '哦，这么神秘！以后告诉我。'],
  ['Work has been a bit quieter this month.', '这个月工作稍微清闲一点。'],
  ["That's good, you deserve a break.", '那挺好的，你也该歇歇了。'],
  ['I finally cleaned out my closet.', '我终于把衣柜清理了一遍。'],
  ['It feels so good to get rid of stuff.', '扔掉一些东西的感觉真好。'],
  ['Do you still go to that café on the corner?', '你还去街角那家咖啡馆吗？'],
  ['Sometimes, their cakes are still the best.', '偶尔去，他们家的蛋糕还是最好吃的。'],
  ["I'm so bad at replying to messages, sorry.", '我回消息太慢了，不好意思。'],
  ['No worries at all!', '完全没关系！'],
  ["I've been listening to a lot of old songs lately.", '我最近一直在听老歌。'],
  ["Music really helps when I'm stressed.", '压力大的时候音乐真的很有用。'],
  ['My back hurts from sitting all day.', '整天坐着，我的背好疼。'],
  ['You should get a better chair.', '你应该换一把好一点的椅子。'],
  ["I've been thinking about learning something new.", '我一直在想学点新东西。'],
  ["You'd be great at anything you pick.", '你选什么都能学好。'],
  ["It's so hot today, I barely left the house.", '今天太热了，我几乎没出门。'],
  ['Let me know how it goes!', '结果怎么样告诉我一声！'],
  ['I will, fingers crossed.', '会的，祝我好运吧。'],
  ['I miss the days when we had more free time.', '真怀念以前空闲时间多的日子。'],
  ['Me too, life got so busy.', '我也是，生活变得好忙。'],
  ['Did you watch the game last night?', '你昨晚看比赛了吗？'],
  ['No, I fell asleep before it started.', '没有，比赛还没开始我就睡着了。'],
  ["I'm trying to spend less time on my phone.", '我在努力少玩手机。'],
  ["Good luck with that, it's hard!", '祝你成功，这可不容易！'],
  ["Anyway, enough about me, what's new with you?", '好啦，不说我了，你最近有什么新鲜事？'],
  ["{O}, you won't believe what happened.", '{O}，你肯定不敢相信发生了什么。'],
  ['Good to hear from you, {O}!', '{O}，很高兴收到你的消息！'],
  ["I'm planning to take more walks in the park.", '我打算多去公园散散步。'],
  ['The weather is finally getting nicer.', '天气终于变好了。'],
  ["My plants keep dying, I don't get it.", '我的植物老是死，我搞不懂。'],
  ["Maybe you're watering them too much.", '可能是你浇水浇太多了。'],
];

/** The other speaker's reaction right after a fact. */
export const REACTIONS: readonly Bi[] = [
  ['Wow, that sounds amazing!', '哇，听起来太棒了！'],
  ['No way! How did that feel?', '不会吧！感觉怎么样？'],
  ['Really? Tell me more!', '真的吗？多跟我说说！'],
  ["Wow, I didn't see that coming.", '哇，真没想到。'],
  ["That's quite a story.", '这经历可真够特别的。'],
  ['Haha, only you!', '哈哈，也就你会这样！'],
  ['How are you feeling about it?', '你现在感觉怎么样？'],
  ['I love hearing about this stuff.', '我最喜欢听你讲这些了。'],
  ['Oh wow, send me pictures!', '哇，给我发照片看看！'],
  ["That's so you, honestly.", '说真的，这太像你了。'],
  ['Hold on, I need the full story.', '等等，我要听完整的故事。'],
  ['Was it what you expected?', '跟你想象的一样吗？'],
];

/** The other speaker's topical follow-up after a fact of the group (a distractor sharing the topic). */
export const FOLLOW_UPS: Record<HopGroup, readonly Bi[]> = {
  places: [["I've always wanted to go there, was it crowded?", '我一直想去那儿，人多吗？'], ['Did you take lots of photos?', '你拍了很多照片吗？']],
  hobby: [['I tried something like that once and gave up after a week.', '我以前也试过类似的，一周就放弃了。'], ['Do you need special gear for that?', '那个需要专门的装备吗？']],
  pet: [['Animals make everything better.', '有小动物在身边什么都变好了。'], ["My landlord doesn't allow pets, I'm jealous.", '我房东不让养宠物，好羡慕你。']],
  food: [['Now I\'m hungry, thanks a lot!', '被你说饿了，谢谢你啊！'], ['You have to teach me sometime.', '你哪天一定要教教我。']],
  purchase: [['Was it worth the money?', '值这个价吗？'], ["I've been looking at something similar.", '我最近也在看类似的东西。']],
  work: [['Your boss is lucky to have you.', '你老板有你真幸运。'], ['How are your coworkers taking it?', '你同事们怎么看？']],
  family: [['Family stuff is always so intense.', '家里的事总是让人操心。'], ['Give them my best.', '替我问候他们。']],
  culture: [["I'd love to join next time.", '下次我也想一起去。'], ['That sounds like my kind of thing.', '听起来很合我胃口。']],
  growth: [["That's really inspiring.", '这真的很激励人。'], ['Where do you find the time?', '你哪来的时间啊？']],
};

/** The teller's own words two turns after a fact without a `detail`. */
export const ELABORATIONS: readonly Bi[] = [
  ['Honestly it was one of the best days this year.', '说实话，那是今年最开心的日子之一。'],
  ["I'm still thinking about it.", '我到现在还在回味。'],
  ["It was a lot, but I'm glad I did it.", '挺累的，但我很庆幸做了这件事。'],
  ["I'll tell you everything when we meet.", '见面的时候我再详细跟你说。'],
  ["I didn't expect it to feel so emotional.", '没想到我会这么激动。'],
  ["It's a long story, but it worked out in the end.", '说来话长，不过最后一切都还好。'],
  ["I think I'm going to do it again.", '我觉得我还会再来一次。'],
  ['My whole week revolved around it.', '我这一整周都围着这件事转。'],
];

/** Speaker pairs: the same index is the same pair in both languages. */
export const NAMES: readonly (readonly [Bi, Bi])[] = [
  [['Emma', '王芳'], ['Liam', '李明']],
  [['Olivia', '张静'], ['Noah', '刘洋']],
  [['Sophia', '陈晨'], ['James', '赵磊']],
  [['Ava', '杨雪'], ['Lucas', '黄伟']],
  [['Mia', '周婷'], ['Ethan', '吴强']],
  [['Grace', '徐丽'], ['Daniel', '孙浩']],
  [['Chloe', '马琳'], ['Henry', '胡军']],
  [['Ruby', '朱敏'], ['Oscar', '郭涛']],
  [['Nora', '林娜'], ['Felix', '何鹏']],
  [['Lily', '高燕'], ['Adam', '罗斌']],
  [['Hannah', '郑欣'], ['Leo', '梁超']],
  [['Zoe', '谢雨'], ['Owen', '宋杰']],
];

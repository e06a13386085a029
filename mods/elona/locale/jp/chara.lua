-- From OpenNefia (https://github.com/Ruin0x11/OpenNefia, MIT licence: mods/elona/locale/LICENSE),
-- src/mod/elona/locale/jp/chara.lua at commit dbe3eaa38fb8730bc74007bf9734a54376429490, unchanged.
return {
   chara = {
      _ = {
         elona = {
            _test = {
               name = "_test"
            },
            abyss = {
               name = "盗賊ギルドの番人『アビス』",
            },
            acid_slime = {
               name = "弱酸性スライム",
            },
            adamantium_golem = {
               name = "アダマンタイトゴーレム",
            },
            ainc = {
               name = "見習い騎士『アインク』",
            },
            alien = {
               name = "エイリアン"
            },
            ancient_coffin = {
               name = "古代の棺"
            },
            android = {
               name = "アンドロイド"
            },
            arena_master = {
               name = "アリーナマスター",
            },
            arnord = {
               name = "負傷兵『アーノルド』",
            },
            artist = {
               name = "芸術家",
            },
            asura = {
               name = "阿修羅"
            },
            at = {
               name = "＠",
            },
            azzrssil = {
               name = "不浄なる者『アズラシズル』",
            },
            balzak = {
               name = "掃除屋『バルザック』",
            },
            bard = {
               name = "吟遊詩人",
            },
            bartender = {
               name = "バーテンダー",
            },
            bat = {
               name = "コウモリ"
            },
            beetle = {
               name = "かぶと虫"
            },
            beggar = {
               name = "乞食",
            },
            big_daddy = {
               name = "『ビッグダディ』",
            },
            bishop = {
               name = "＜ビショップ＞"
            },
            black_angel = {
               name = "黒天使",
            },
            black_cat = {
               name = "黒猫",
            },
            black_widow = {
               name = "ブラックウィドウ",
            },
            blade = {
               name = "ブレイド"
            },
            blade_alpha = {
               name = "ブレイドβ"
            },
            blade_omega = {
               name = "ブレイドΩ"
            },
            blood_spider = {
               name = "吸血蜘蛛",
            },
            blue_baptist = {
               name = "青の洗礼者"
            },
            blue_bubble = {
               name = "ブルーバブル",
            },
            bomb_rock = {
               name = "爆弾岩"
            },
            brown_bear = {
               name = "ブラウンベア",
            },
            bubble = {
               name = "バブル",
            },
            bug = {
               name = "バグ"
            },
            cacy = {
               name = "猫使い『ケシー』",
            },
            captain = {
               name = "船長",
            },
            caravan_master = {
               name = "キャラバンの隊長"
            },
            carbuncle = {
               name = "カーバンクル",
            },
            cat = {
               name = "猫",
            },
            centipede = {
               name = "ムカデ"
            },
            cerberus = {
               name = "ケルベロス"
            },
            chaos_cloud = {
               name = "混沌の塊"
            },
            chaos_dragon = {
               name = "カオスドラゴン"
            },
            chaos_eye = {
               name = "カオスアイ"
            },
            chaos_flower = {
               name = "カオスフラワー"
            },
            chaos_hound = {
               name = "カオスハウンド"
            },
            chaos_imp = {
               name = "カオスインプ"
            },
            chaos_mushroom = {
               name = "混沌きのこ"
            },
            chicken = {
               name = "鶏",
            },
            citizen = {
               name = "市民",
            },
            citizen2 = {
               name = "市民",
            },
            citizen_of_cyber_dome = {
               name = "サイバードームの住人",
            },
            citizen_of_cyber_dome2 = {
               name = "サイバードームの住人",
            },
            cleaner = {
               name = "清掃員",
            },
            cobra = {
               name = "コブラ"
            },
            conery = {
               name = "パルミア少将『コネリー』",
            },
            corgon = {
               name = "鋼鉄竜『コルゴン』"
            },
            cub = {
               name = "カブ",
            },
            cube = {
               name = "キューブ"
            },
            cultist_of_fire = {
               name = "炎の信仰者"
            },
            cupid_of_love = {
               name = "恋のキューピット"
            },
            cute_fairy = {
               name = "妖精さん",
            },
            cyclops = {
               name = "サイクロプス"
            },
            dark_hound = {
               name = "ダークハウンド"
            },
            death_armor = {
               name = "デスアーマー"
            },
            death_gaze = {
               name = "デスゲイズ"
            },
            defender = {
               name = "防衛者"
            },
            deformed_eye = {
               name = "異形の目"
            },
            demi_lich = {
               name = "デミリッチ"
            },
            dog = {
               name = "犬",
            },
            doria = {
               name = "戦士ギルドの番人『ドリア』",
            },
            dragon_bat = {
               name = "ドラゴンバット"
            },
            dungeon_cleaner = {
               name = "『ダンジョンクリーナー』",
            },
            ebon = {
               name = "火の巨人『エボン』",
            },
            ebon2 = {
               name = "火の巨人『エボン』",
            },
            ehekatl = {
               name = "《幸運のエヘカトル》"
            },
            elder = {
               name = "長",
            },
            elec_dragon = {
               name = "エレキドラゴン"
            },
            electric_cloud = {
               name = "放電雲"
            },
            erystia = {
               name = "歴史を学ぶ『エリステア』",
            },
            euryale = {
               name = "エウリュアレ"
            },
            executioner = {
               name = "死刑執行人"
            },
            exile = {
               name = "追放者"
            },
            fairy = {
               name = "妖精"
            },
            fallen_soldier = {
               name = "敗残兵",
            },
            fanatic = {
               name = "ジュアの狂信者",
            },
            farmer = {
               name = "農夫",
            },
            festival_tourist = {
               name = "祭りの観光客",
            },
            fighter_guild_member = {
               name = "戦士ギルド",
            },
            fire_centipede = {
               name = "火炎ムカデ"
            },
            fire_crab = {
               name = "火蟹"
            },
            fire_drake = {
               name = "ファイアドレイク"
            },
            fire_ent = {
               name = "火炎樹"
            },
            fire_hound = {
               name = "ファイアハウンド"
            },
            floating_eye = {
               name = "フローティングアイ"
            },
            flying_frog = {
               name = "飛び蛙"
            },
            fray = {
               name = "戦士ギルドマスター『フレイ』"
            },
            frisia = {
               name = "猫の女王『フリージア』",
            },
            gagu = {
               name = "ガグ"
            },
            gangster = {
               name = "ごろつき",
            },
            garokk = {
               name = "伝説の職人『ガロク』",
            },
            ghost = {
               name = "亡霊"
            },
            giant_squirrel = {
               name = "巨大リス"
            },
            gilbert = {
               name = "辺境の勇士『ギルバート大佐』",
            },
            goblin = {
               name = "ゴブリン"
            },
            goblin_shaman = {
               name = "ゴブリンシャーマン"
            },
            goblin_warrior = {
               name = "ゴブリンの戦士"
            },
            goblin_wizard = {
               name = "ゴブリンの魔法使い"
            },
            god_inside_ehekatl = {
               name = "《エヘカトルの中の神》"
            },
            goda = {
               name = "オークの隊長『ゴダ』"
            },
            gold_bell = {
               name = "ゴールドベル",
            },
            golden_armor = {
               name = "ゴールデンアーマー"
            },
            golden_golem = {
               name = "ゴールドゴーレム",
            },
            golden_knight = {
               name = "黄金の騎士"
            },
            great_race_of_yith = {
               name = "イスの偉大なる種族"
            },
            greater_mummy = {
               name = "グレイターマミー"
            },
            greater_pumpkin = {
               name = "南瓜の怪物"
            },
            green_dragon = {
               name = "グリーンドラゴン"
            },
            grizzly = {
               name = "グリズリー"
            },
            grudge = {
               name = "怨念"
            },
            guard = {
               name = "ガード",
            },
            guard_port_kapul = {
               name = "ガード",
            },
            guild_trainer = {
               name = "ギルドトレイナー",
            },
            gwen = {
               name = "無邪気な少女『グウェン』",
            },
            halloween_nightmare = {
               name = "ハロウィンナイトメア"
            },
            hand_of_the_chaos = {
               name = "混沌の手"
            },
            hand_of_the_dead = {
               name = "亡者の手"
            },
            hand_of_the_murderer = {
               name = "殺人鬼の手"
            },
            hard_gay = {
               name = "ハードゲイ",
            },
            harpy = {
               name = "ハーピー"
            },
            healer = {
               name = "癒し手",
            },
            hedgehog = {
               name = "ハリねずみ"
            },
            hermit_crab = {
               name = "やどかり"
            },
            holy_beast = {
               name = "聖獣",
            },
            hot_spring_maniac = {
               name = "温泉マニア",
            },
            hound = {
               name = "猟犬"
            },
            hungry_demon = {
               name = "餓鬼"
            },
            hungry_sea_lion = {
               name = "大食いトド"
            },
            ice_drake = {
               name = "アイスドレイク"
            },
            ice_ent = {
               name = "氷結樹"
            },
            ice_hound = {
               name = "アイスハウンド"
            },
            icolle = {
               name = "生化学者『イコール』",
            },
            illusion_hound = {
               name = "幻惑ハウンド"
            },
            imp = {
               name = "インプ"
            },
            impure_eye = {
               name = "不浄なる瞳"
            },
            informer = {
               name = "情報屋",
            },
            iron_maiden = {
               name = "鉄の処女"
            },
            isca = {
               name = "堕天使『イスカ』"
            },
            issizzle = {
               name = "闇の奇形『イスシズル』"
            },
            juere_infantry = {
               name = "ジューア歩兵",
            },
            juere_swordman = {
               name = "ジューア剣闘士",
            },
            kamikaze_samurai = {
               name = "地雷侍",
            },
            kamikaze_yeek = {
               name = "カミカゼ・イーク"
            },
            kaneda_bike = {
               name = "『カネダのバイク』",
            },
            karam = {
               name = "カルーンの孤狼『カラム』",
            },
            killer_squirrel = {
               name = "殺人リス"
            },
            king = {
               name = "＜キング＞"
            },
            king_cobra = {
               name = "キングコブラ"
            },
            king_scorpion = {
               name = "ダイオウサソリ"
            },
            knight = {
               name = "＜ナイト＞"
            },
            kobold = {
               name = "コボルト"
            },
            kumiromi = {
               name = "《収穫のクミロミ》"
            },
            lame_horse = {
               name = "駄馬",
            },
            larnneire = {
               name = "風を聴く者『ラーネイレ』",
            },
            lesser_mummy = {
               name = "レッサーマミー"
            },
            lesser_phantom = {
               name = "レッサーファントム"
            },
            lexus = {
               name = "魔術士ギルドの番人『レクサス』",
            },
            lich = {
               name = "リッチ"
            },
            lightning_hound = {
               name = "ライトニングハウンド"
            },
            lily = {
               name = "パエルの母『リリィ』",
            },
            lion = {
               name = "ライオン",
            },
            little_girl = {
               name = "少女",
            },
            little_sister = {
               name = "『リトルシスター』",
            },
            living_armor = {
               name = "リビングアーマー"
            },
            lizard_man = {
               name = "リザードマン"
            },
            lomias = {
               name = "異形の森の使者『ロミアス』",
            },
            loyter = {
               name = "ザナンの紅の英雄『ロイター』",
            },
            lulwy = {
               name = "《風のルルウィ》"
            },
            mad_gaze = {
               name = "マッドゲイズ"
            },
            mad_scientist = {
               name = "『マッドサイエンティスト』"
            },
            mage_guild_member = {
               name = "魔術士ギルド",
            },
            maid = {
               name = "メイド",
            },
            mammoth = {
               name = "マンモス"
            },
            man_eater_flower = {
               name = "人食い花"
            },
            mandrake = {
               name = "マンドレイク"
            },
            mani = {
               name = "《機械のマニ》"
            },
            marks = {
               name = "稀代の泥棒『マークス』",
            },
            mass_monster = {
               name = "塊の怪物"
            },
            master_lich = {
               name = "マスターリッチ"
            },
            pet_arena_master = {
               name = "ペットアリーナの主催者『ニノ』"
            },
            master_thief = {
               name = "マスターシーフ",
            },
            master_yeek = {
               name = "マスター・イーク"
            },
            medusa = {
               name = "メデューサ"
            },
            mercenary = {
               name = "傭兵",
            },
            mercenary_archer = {
               name = "傭兵射手",
            },
            mercenary_warrior = {
               name = "傭兵戦士",
            },
            mercenary_wizard = {
               name = "傭兵魔術士",
            },
            messenger_of_death = {
               name = "死神の使い"
            },
            mia = {
               name = "猫かぶり『ミーア』",
            },
            miches = {
               name = "見習い『ミシェス』",
            },
            mine_dog = {
               name = "地雷犬"
            },
            miner = {
               name = "鉱夫",
            },
            minotaur = {
               name = "ミノタウロス"
            },
            minotaur_boxer = {
               name = "ミノタウロスの闘士"
            },
            minotaur_king = {
               name = "ミノタウロスの戦士"
            },
            minotaur_magician = {
               name = "ミノタウロスの術士"
            },
            miral = {
               name = "伝説の職人『ミラル』",
            },
            missionary_of_darkness = {
               name = "闇の宣教師",
            },
            mithril_golem = {
               name = "ミスリルゴーレム",
            },
            mitra = {
               name = "ミトラ"
            },
            moyer_the_crooked = {
               name = "見世物屋の『モイアー』",
            },
            mummy = {
               name = "マミー"
            },
            mushroom = {
               name = "きのこ"
            },
            mutant = {
               name = "ミュータント"
            },
            mysterious_producer = {
               name = "『謎のプロデューサー』",
            },
            nerve_hound = {
               name = "神経ハウンド"
            },
            nether_dragon = {
               name = "冥界ドラゴン"
            },
            nether_hound = {
               name = "地獄ハウンド"
            },
            nether_imp = {
               name = "冥界の使い"
            },
            noble = {
               name = "貴族",
            },
            noble_child = {
               name = "貴族の子供",
            },
            noel = {
               name = "爆弾魔『ノエル』",
            },
            noyel_horse = {
               name = "ノイエル馬",
            },
            nun = {
               name = "シスター",
            },
            nurse = {
               name = "白衣のナース",
            },
            nymph = {
               name = "ニンフ"
            },
            old_person = {
               name = "老人",
            },
            opatos = {
               name = "《地のオパートス》"
            },
            orc = {
               name = "オーク"
            },
            orc_warrior = {
               name = "オークの戦士"
            },
            orphe = {
               name = "混沌の寵児『オルフェ』",
            },
            pael = {
               name = "ひとりぼっちの『パエル』",
            },
            palmian_elite_soldier = {
               name = "パルミア特殊部隊",
            },
            paralyzer = {
               name = "パラライザー",
            },
            part_time_worker = {
               name = "着ぐるみのバイト",
            },
            pawn = {
               name = "＜ポーン＞"
            },
            poison_hound = {
               name = "ポイズンハウンド"
            },
            poppy = {
               name = "子犬の『ポピー』",
            },
            prisoner = {
               name = "囚人",
            },
            prostitute = {
               name = "娼婦",
            },
            public_performer = {
               name = "大道芸人",
            },
            pumpkin = {
               name = "パンプキン"
            },
            punk = {
               name = "パンク",
            },
            puppet = {
               name = "パペット"
            },
            puppy = {
               name = "パピー"
            },
            putit = {
               name = "プチ",
            },
            queen = {
               name = "＜クィーン＞"
            },
            quickling = {
               name = "クイックリング"
            },
            quickling_archer = {
               name = "クイックリングの弓使い"
            },
            quruiza = {
               name = "赤き義眼の『クルイツゥア』"
            },
            rabbit = {
               name = "野うさぎ"
            },
            raphael = {
               name = "女たらしの『ラファエロ』",
            },
            rat = {
               name = "ネズミ",
            },
            red_baptist = {
               name = "赤の洗礼者"
            },
            red_dragon = {
               name = "レッドドラゴン"
            },
            red_putit = {
               name = "ベスプチ",
            },
            red_wasp = {
               name = "レッドワスプ"
            },
            renton = {
               name = "悩める魔術士『レントン』",
            },
            revlus = {
               name = "魔術士ギルドマスター『レヴラス』",
            },
            rich_person = {
               name = "大富豪",
            },
            rilian = {
               name = "犬好きの少女『リリアン』",
            },
            robber = {
               name = "強盗",
            },
            rock_thrower = {
               name = "ロックスロアー"
            },
            rodlob = {
               name = "イークの首領『ルードルボ』",
            },
            rogue = {
               name = "ならずもの",
            },
            rogue_archer = {
               name = "盗賊団の殺し屋",
            },
            rogue_boss = {
               name = "盗賊団の頭領",
            },
            rogue_warrior = {
               name = "盗賊団の用心棒",
            },
            rogue_wizard = {
               name = "盗賊団の術士",
            },
            rook = {
               name = "＜ルーク＞"
            },
            sailor = {
               name = "水夫",
            },
            sales_person = {
               name = "セールスマン",
            },
            scorpion = {
               name = "サソリ"
            },
            shade = {
               name = "シェイド"
            },
            shadow_stalker = {
               name = "闇の老師"
            },
            shena = {
               name = "看板娘『シーナ』",
            },
            shining_hedgehog = {
               name = "輝くハリねずみ"
            },
            shopkeeper = {
               name = "店主",
            },
            shub_niggurath = {
               name = "シュブ＝ニグラス"
            },
            silver_bell = {
               name = "シルバーベル",
            },
            silver_cat = {
               name = "シルバーキャット",
            },
            silver_eyed_witch = {
               name = "銀眼の斬殺者",
            },
            silver_wolf = {
               name = "銀狼",
            },
            silvia = {
               name = "皇女『シルヴィア』",
            },
            sin = {
               name = "盗賊ギルドマスター『シン』"
            },
            sister = {
               name = "修道女",
            },
            skeleton_berserker = {
               name = "骸骨狂戦士"
            },
            skeleton_warrior = {
               name = "骸骨戦士"
            },
            sky_golem = {
               name = "スカイゴーレム",
            },
            slan = {
               name = "パルミアの影『スラン』",
            },
            slime = {
               name = "スライム",
            },
            snail = {
               name = "かたつむり",
            },
            sound_hound = {
               name = "轟音ハウンド"
            },
            spider = {
               name = "まだら蜘蛛",
            },
            spiral_king = {
               name = "螺旋の王"
            },
            spore_mushroom = {
               name = "胞子きのこ"
            },
            stalker = {
               name = "闇子"
            },
            steel_golem = {
               name = "スティールゴーレム",
            },
            steel_mass = {
               name = "鉄塊"
            },
            stersha = {
               name = "パルミア王妃『スターシャ』",
            },
            stheno = {
               name = "ステンノ"
            },
            stone_golem = {
               name = "ストーンゴーレム",
            },
            strange_scientist = {
               name = "『謎の科学者』",
            },
            stray_cat = {
               name = "迷子の子猫",
            },
            super_hungry_sea_lion = {
               name = "超大食いトド"
            },
            tam = {
               name = "猫嫌いの『タム』",
            },
            tarantula = {
               name = "タランチュラ",
            },
            test_subject = {
               name = "実験台"
            },
            the_leopard_warrior = {
               name = "『豹頭の戦士』",
            },
            thief = {
               name = "見習い盗賊",
            },
            thief_guild_member = {
               name = "盗賊ギルド",
            },
            titan = {
               name = "タイタン",
            },
            tourist = {
               name = "観光客",
            },
            town_child = {
               name = "街の子供",
            },
            trainer = {
               name = "トレイナー",
            },
            troll = {
               name = "トロール"
            },
            tuwen = {
               name = "ピラミッドの主『ツェン』"
            },
            twintail = {
               name = "ツインテール",
            },
            tyrannosaurus = {
               name = "ティラノサウルス"
            },
            ungaga = {
               name = "ミノタウロスの王『ウンガガ』"
            },
            user = {
               name = "user"
            },
            utima = {
               name = "ゼイレン究極破壊兵器『ウティマ』",
            },
            vampire_bat = {
               name = "吸血コウモリ"
            },
            varuna = {
               name = "ヴァルナ"
            },
            vesda = {
               name = "火炎竜『ヴェスダ』"
            },
            warrior = {
               name = "戦士"
            },
            warrior_of_elea = {
               name = "エレアの戦士"
            },
            wasp = {
               name = "ワスプ"
            },
            white_dragon = {
               name = "ホワイトドラゴン"
            },
            whom_dwell_in_the_vanity = {
               name = "『虚空を這いずる者』",
            },
            wild_horse = {
               name = "野生馬",
            },
            wild_horse2 = {
               name = "サラブレッド",
            },
            wild_sheep = {
               name = "羊"
            },
            wisp = {
               name = "ウィスプ"
            },
            wizard = {
               name = "魔術士"
            },
            wizard_of_elea = {
               name = "エレアの魔術士"
            },
            wooden_golem = {
               name = "ウッドゴーレム",
            },
            wynan = {
               name = "古城の主『ワイナン』"
            },
            wyvern = {
               name = "ワイバーン"
            },
            xabi = {
               name = "パルミア王『ジャビ』",
            },
            yeek = {
               name = "イーク"
            },
            yeek_archer = {
               name = "イークの射手"
            },
            yeek_warrior = {
               name = "イークの戦士"
            },
            yerles_elite_machine_infantry = {
               name = "イェルスエリート機械兵",
            },
            yerles_machine_infantry = {
               name = "イェルス機械兵",
            },
            yerles_self_propelled_gun = {
               name = "イェルス自走砲"
            },
            young_lady = {
               name = "嬢",
            },
            younger_cat_sister = {
               name = "妹猫",
            },
            younger_sister = {
               name = "妹",
            },
            younger_sister_of_mansion = {
               name = "妹",
            },
            yowyn_horse = {
               name = "ヨウィン馬",
            },
            zeome = {
               name = "偽りの預言者『ゼーム』",
            },
            zombie = {
               name = "ゾンビ"
            }
         }
      }
   }
}
